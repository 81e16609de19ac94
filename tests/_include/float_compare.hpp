/// @file tests/_include/float_compare.hpp
/// @brief Comparing floating-point results in tests: exact ("same value": NaN matches NaN,
/// infinities and signed zeros exactly) and within a number of units in the last place.
#ifndef CALX_TESTS_FLOAT_COMPARE_HPP
#define CALX_TESTS_FLOAT_COMPARE_HPP

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

namespace calx_test {

/// Whether `got` is `want` exactly: both NaN, or equal with the same sign (so +0 and -0
/// differ unless `signed_zero` is false).
template <class T>
bool same_value(T got, T want, bool signed_zero = true) {
  if (std::isnan(want)) return std::isnan(got);
  if (got != want) return false;
  return !signed_zero || std::signbit(got) == std::signbit(want);
}

/// The floats of type T mapped to integers in order, so that neighbours differ by 1 and
/// +0 and -0 both map to 0.
template <class T>
std::int64_t ordered_bits(T x) {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const U bits = std::bit_cast<U>(x);
  const U magnitude = bits & (std::numeric_limits<U>::max() >> 1);
  const auto m = static_cast<std::int64_t>(magnitude);
  return std::signbit(x) ? -m : m;
}

/// How many representable T lie between `a` and `b` (0 when equal, either zero sign).
/// Saturates instead of overflowing for far-apart doubles.
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  const std::int64_t x = ordered_bits(a), y = ordered_bits(b);
  if ((x < 0) != (y < 0)) {  // opposite signs: add the two magnitudes without overflow
    const std::uint64_t d = static_cast<std::uint64_t>(x < 0 ? -x : x) + static_cast<std::uint64_t>(y < 0 ? -y : y);
    return d;
  }
  return static_cast<std::uint64_t>(x < y ? y - x : x - y);
}

/// Whether `got` is within `ulps` units in the last place of `want`; NaN must match NaN,
/// and an infinite `want` must be matched exactly.
template <class T>
bool within_ulps(T got, T want, std::uint64_t ulps) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return ulp_distance(got, want) <= ulps;
}

/// A value printed with enough digits to tell neighbouring floats apart.
template <class T>
std::string text(T x) {
  std::ostringstream s;
  s.precision(std::numeric_limits<T>::max_digits10);
  s << x;
  return s.str();
}

}  // namespace calx_test

#endif // CALX_TESTS_FLOAT_COMPARE_HPP
