/// @file tests/_include/tensor_table.hpp
/// @brief The tensor op table the tensor tests run over (one function per tensor op, from
/// one 3x4 tensor to a tensor), and helpers to fill and compare tensors.
#ifndef CALX_TESTS_TENSOR_TABLE_HPP
#define CALX_TESTS_TENSOR_TABLE_HPP

#include <calx/calx.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>

namespace calx_test {

/// A tensor filled with reproducible values in [lo, hi).
template <class X>
X filled(unsigned seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  X x;
  for (std::size_t k = 0; k < X::size; ++k) x[k] = static_cast<typename X::value_type>(u(rng));
  return x;
}

template <class X>
double max_abs_diff(const X& a, const X& b) {
  double d = 0;
  for (std::size_t k = 0; k < X::size; ++k) d = std::max(d, std::abs(double(a[k]) - double(b[k])));
  return d;
}

/// The largest magnitude of a tensor's elements (for relative tolerances).
template <class X>
double magnitude(const X& t) {
  return max_abs_diff(t, X{});
}

/// One function per tensor op, from one 3x4 tensor to a tensor; traced, each becomes a few
/// nodes and runs as generated loops.
constexpr auto op_table = std::tuple{
    [](const auto& x) { return calx::tanh(x) * x - 1.0; },
    [](const auto& x) { return calx::sum(x, calx::axis<0>) + calx::mean(x, calx::axis<0>); },
    [](const auto& x) { return calx::sum(x) * calx::max(x) + calx::min(x); },
    [](const auto& x) { return calx::max(x, calx::axis<1>) - calx::min(x, calx::axis<1>); },
    [](const auto& x) { return calx::matmul(calx::transpose(x), x); },
    [](const auto& x) { return calx::matvec(x, calx::take<1>(x)) + calx::dot(calx::take<0>(x), calx::take<2>(x)); },
    [](const auto& x) { return calx::outer(calx::take<1>(x, calx::axis<1>), calx::take<0>(x)); },
    [](const auto& x) { return calx::reshape<2, 6>(x) * calx::take<1>(calx::reshape<2, 6>(x)); },
    [](const auto& x) { return calx::concatenate(calx::slice<1, 3>(x), x, calx::axis<0>); },
    [](const auto& x) { return calx::stack(calx::take<0>(x), calx::take<2>(x)) * 2.0; },
    [](const auto& x) { return calx::softmax(x, calx::axis<1>) + calx::log_softmax(x); },
    [](const auto& x) { return calx::logsumexp(x, calx::axis<0>) * calx::norm(x); },
    [](const auto& x) { return calx::where(x > 0.0, x, 0.1 * x) + calx::where(x <= calx::take<0>(x), 1.0, 0.0); },
    [](const auto& x) { return calx::exp(-calx::square(x - calx::mean(x))) / calx::hypot(x, 2.0); },
    [](const auto& x) { return calx::prod(x, calx::axis<1>) + calx::prod(x, calx::axis<0>)(1) * calx::prod(x); },
};

/// The table's functions made scalar (a weighted sum of the output, so no entry is lost).
template <std::size_t K>
constexpr auto scalar_of = [](const auto& x) {
  const auto y = std::get<K>(op_table)(x);
  using Y = std::remove_cvref_t<decltype(y)>;
  Y w;
  for (std::size_t k = 0; k < Y::size; ++k) w[k] = 0.5 + 0.25 * static_cast<double>(k % 5);
  return calx::sum(y * w);
};

inline constexpr std::size_t op_table_size = std::tuple_size_v<std::remove_cvref_t<decltype(op_table)>>;

/// Calls `check(std::integral_constant<std::size_t, K>{})` for every function K of the table.
template <class Check>
void for_table(Check check) {
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (check(std::integral_constant<std::size_t, K>{}), ...);
  }(std::make_index_sequence<op_table_size>{});
}

/// The same for part `Part` of `Parts` of the table (functions [Part * size / Parts,
/// (Part + 1) * size / Parts)): a test over the table split into translation units of
/// their own, for the compile-time budget (docs/testing.md).
template <std::size_t Part, std::size_t Parts, class Check>
void for_table_part(Check check) {
  constexpr std::size_t first = Part * op_table_size / Parts, last = (Part + 1) * op_table_size / Parts;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (check(std::integral_constant<std::size_t, first + K>{}), ...);
  }(std::make_index_sequence<last - first>{});
}

}  // namespace calx_test

#endif  // CALX_TESTS_TENSOR_TABLE_HPP
