/// @file tests/vmap.sources.cpp
/// @brief What `calx::vmap` maps over and writes to: array-of-struct batches (read with a
/// stride), std::span (unaligned, mutable, fixed extent), std::array (a compile-time length
/// gives std::array results), user buffers through into(), and the std::invalid_argument
/// for batches and buffers of different lengths.
///
/// Every function here is + - * / sqrt: the SIMD loop and the scalar program perform the
/// same correctly rounded operations, so every comparison is bitwise (calx_test::same_ops:
/// a few ulp where the compiler may contract a * b + c into an fma differently in two code
/// paths; terms are below 16 (array-of-struct) and 32 (x^3 on [-3, 3]) in magnitude).

#include <_include/float_compare.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::batch_sizes;
using calx_test::check_column;
using calx_test::column;
using calx_test::lanes_v;
using calx_test::sample;
using calx_test::tolerance;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

constexpr auto poly = [](auto x) { return (x * x - 3.0) * x + 0.5 / (1.0 + x * x); };
constexpr auto mul_add = [](auto x, auto y) { return x * y + y / (2.0 + x * x); };
constexpr auto split = [](auto x, auto w) { return std::tuple{x * w, w * w}; };
constexpr auto powers = [](auto x) { return std::array{x, x * x, x * x * x}; };

// ---------------------------------------------------------------------------------------
// Array-of-struct batches: each sample is a structure; its leaves are read with a stride
// of sizeof(element).

constexpr auto norm_plus = [](auto v) { return calx::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + v[0] * v[2]; };
constexpr auto tuple_diff = [](auto t) { return std::get<0>(t) * std::get<1>(t) - std::get<1>(t); };
constexpr auto pair_nested = [](auto s) { return s.first * s.second[0] - s.second[1]; };
constexpr auto aos_and_column = [](auto v, auto x, auto w) { return v[0] * x + v[1] * w - v[2]; };

template <class T>
std::vector<std::array<T, 3>> points(std::size_t n, unsigned salt = 0) {
  std::vector<std::array<T, 3>> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = {sample<T>(i, -2, 2, salt), sample<T>(i, -2, 2, salt + 1), sample<T>(i, -2, 2, salt + 2)};
  return v;
}

TEMPLATE_TEST_CASE("vmap over array-of-struct batches", "[vmap]", float, double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);
  const auto p_norm = calx::trace(norm_plus, std::array<T, 3>{});
  const auto p_tuple = calx::trace(tuple_diff, std::tuple<T, T>{});
  const auto p_pair = calx::trace(pair_nested, std::pair<T, std::array<T, 2>>{});
  const auto p_mixed = calx::trace(aos_and_column, std::array<T, 3>{}, T{}, T{});
  for (std::size_t n : batch_sizes<T>()) {
    const auto v = points<T>(n);
    const auto r = calx::vmap(norm_plus)(v);
    STATIC_REQUIRE(std::is_same_v<decltype(r), const calx::batched<T>>);
    check_column("std::vector<std::array<T, 3>>", r, n, [&](std::size_t i) { return p_norm(v[i]); }, same);

    std::vector<std::tuple<T, T>> t(n);
    for (std::size_t i = 0; i < n; ++i) t[i] = {v[i][0], v[i][1]};
    check_column("std::vector<std::tuple<T, T>>", calx::vmap(tuple_diff)(t), n,
                 [&](std::size_t i) { return p_tuple(t[i]); }, same);

    std::vector<std::pair<T, std::array<T, 2>>> s(n);
    for (std::size_t i = 0; i < n; ++i) s[i] = {v[i][0], {v[i][1], v[i][2]}};
    check_column("std::vector<std::pair<T, std::array<T, 2>>>", calx::vmap(pair_nested)(s), n,
                 [&](std::size_t i) { return p_pair(s[i]); }, same);

    // A strided batch next to a contiguous one and a broadcast number.
    const auto x = column<T>(n, -1, 1, 7);
    const auto m = calx::vmap(aos_and_column, calx::in_axes<0, 0, calx::none>)(v, x, T(0.25));
    check_column("array-of-struct, column, broadcast", m, n,
                 [&](std::size_t i) { return p_mixed(v[i], x[i], T(0.25)); }, same);
  }
}

// ---------------------------------------------------------------------------------------
// std::span: views of someone else's storage, at any alignment.

TEMPLATE_TEST_CASE("vmap over std::span: unaligned, mutable, mixed with vectors, fixed extent", "[vmap]", float,
                   double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(32);
  const auto p_poly = calx::trace(poly, T{});
  const auto p_mul = calx::trace(mul_add, T{}, T{});
  const auto p_norm = calx::trace(norm_plus, std::array<T, 3>{});
  for (std::size_t n : batch_sizes<T>()) {
    // A span starting at element 1 of a vector: its data is not aligned to a SIMD register.
    std::vector<T> storage(n + 1);
    for (std::size_t i = 0; i < n; ++i) storage[i + 1] = sample<T>(i, -3, 3, 8);
    const std::span<const T> x(storage.data() + 1, n);
    const std::vector<T> copy(x.begin(), x.end());
    const auto r = calx::vmap(poly)(x);
    STATIC_REQUIRE(std::is_same_v<decltype(r), const calx::batched<T>>);
    check_column("unaligned std::span<const T>", r, n, [&](std::size_t i) { return p_poly(x[i]); }, same);
    // The same compiled loop on the same values: bitwise even where fma contraction may vary.
    const auto from_vector = calx::vmap(poly)(copy);
    check_column("unaligned span == vector", r, n, [&](std::size_t i) { return from_vector[i]; });
    // std::span<T> (mutable elements), next to a std::vector.
    const std::span<T> y(storage.data() + 1, n);
    const auto y2 = column<T>(n, -3, 3, 9);
    check_column("std::span<T> with std::vector", calx::vmap(mul_add)(y, y2), n,
                 [&](std::size_t i) { return p_mul(y[i], y2[i]); }, same);
    // A span of structures, also unaligned.
    auto v = points<T>(n + 1);
    const std::span<const std::array<T, 3>> vs(v.data() + 1, n);
    check_column("unaligned std::span<const std::array<T, 3>>", calx::vmap(norm_plus)(vs), n,
                 [&](std::size_t i) { return p_norm(vs[i]); }, same);
  }
  // A span with a fixed extent has a compile-time length: the result is a std::array.
  const std::vector<T> five = column<T>(5, -3, 3, 10);
  const std::span<const T, 5> fixed(five.data(), 5);
  const auto r = calx::vmap(poly)(fixed);
  STATIC_REQUIRE(std::is_same_v<decltype(r), const std::array<T, 5>>);
  check_column("std::span<const T, 5>", r, 5, [&](std::size_t i) { return p_poly(five[i]); }, same);
}

// ---------------------------------------------------------------------------------------
// std::array batches: the length is known at compile time and the result columns are
// std::arrays of it.

template <class T, std::size_t N>
void check_static_length() {
  const tolerance same = calx_test::same_ops<T>(32);
  std::array<T, N> x{};
  for (std::size_t i = 0; i < N; ++i) x[i] = sample<T>(i, -3, 3, 11);
  std::array<std::array<T, 3>, N> v{};
  for (std::size_t i = 0; i < N; ++i) v[i] = {x[i], T(1) - x[i], x[i] * T(0.5)};
  const std::vector<T> y = column<T>(N, -3, 3, 12);
  const auto p_poly = calx::trace(poly, T{});
  const auto p_norm = calx::trace(norm_plus, std::array<T, 3>{});
  const auto p_mul = calx::trace(mul_add, T{}, T{});
  INFO("N = " << N);

  const auto r = calx::vmap(poly)(x);
  STATIC_REQUIRE(std::is_same_v<decltype(r), const std::array<T, N>>);
  check_column("std::array<T, N>", r, N, [&](std::size_t i) { return p_poly(x[i]); }, same);

  const auto rv = calx::vmap(norm_plus)(v);
  STATIC_REQUIRE(std::is_same_v<decltype(rv), const std::array<T, N>>);
  check_column("std::array<std::array<T, 3>, N>", rv, N, [&](std::size_t i) { return p_norm(v[i]); }, same);

  const auto both = calx::vmap(mul_add)(x, x);
  STATIC_REQUIRE(std::is_same_v<decltype(both), const std::array<T, N>>);
  check_column("two std::array<T, N>", both, N, [&](std::size_t i) { return p_mul(x[i], x[i]); }, same);

  // out_axes none beside a static column.
  const auto once = calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>)(x, T(3));
  STATIC_REQUIRE(std::is_same_v<decltype(once), const std::tuple<std::array<T, N>, T>>);
  check_column("std::array with out_axes<0, none>", std::get<0>(once), N, [&](std::size_t i) { return x[i] * T(3); });
  CHECK(std::get<1>(once) == T(9));

  // With a runtime batch beside it, the length is a runtime one: calx::batched columns.
  const auto mixed = calx::vmap(mul_add)(x, y);
  STATIC_REQUIRE(std::is_same_v<decltype(mixed), const calx::batched<T>>);
  check_column("std::array with std::vector", mixed, N, [&](std::size_t i) { return p_mul(x[i], y[i]); }, same);
}

TEMPLATE_TEST_CASE("vmap over std::array batches returns std::array columns", "[vmap]", float, double) {
  using T = TestType;
  check_static_length<T, 0>();
  check_static_length<T, 1>();
  check_static_length<T, 3>();
  check_static_length<T, lanes_v<T> - 1>();
  check_static_length<T, lanes_v<T> + 1>();
  check_static_length<T, 17>();
}

// ---------------------------------------------------------------------------------------
// into(): the result written to the user's buffers, bitwise the owning call's result.

TEMPLATE_TEST_CASE("vmap(f).into(out) writes into user buffers", "[vmap]", float, double) {
  using T = TestType;
  constexpr T guard = T(-12345);
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -3, 3, 13), y = column<T>(n, -3, 3, 14);
    const calx::batched<T> want = calx::vmap(mul_add)(x, y);

    std::vector<T> vec(n, guard);
    STATIC_REQUIRE(std::is_void_v<decltype(calx::vmap(mul_add).into(vec)(x, y))>);
    calx::vmap(mul_add).into(vec)(x, y);
    check_column("into(std::vector)", vec, n, [&](std::size_t i) { return want[i]; });

    calx::batched<T> col(n, guard);
    calx::vmap(mul_add).into(col)(x, y);
    check_column("into(calx::batched)", col, n, [&](std::size_t i) { return want[i]; });

    // A span one element into a larger buffer (unaligned), with guards on both sides that
    // must stay untouched.
    std::vector<T> storage(n + 2, guard);
    std::span<T> window(storage.data() + 1, n);
    calx::vmap(mul_add).threads(2).into(window)(x, y);
    check_column("into(unaligned std::span) on two threads", window, n, [&](std::size_t i) { return want[i]; });
    CHECK(storage.front() == guard);
    CHECK(storage.back() == guard);

    // Structures: a column and a plain T for out_axes none; a broadcast output into a column.
    std::vector<T> c0(n, guard);
    std::tuple<std::span<T>, T> once{c0, guard};
    calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>).into(once)(x, T(2));
    check_column("into(tuple): column", std::get<0>(once), n, [&](std::size_t i) { return x[i] * T(2); });
    CHECK(std::get<1>(once) == T(4));
    std::tuple<std::vector<T>, calx::batched<T>> every{std::vector<T>(n, guard), calx::batched<T>(n, guard)};
    calx::vmap(split, calx::in_axes<0, calx::none>).into(every)(x, T(2));
    check_column("into(tuple): broadcast column", std::get<1>(every), n, [&](std::size_t) { return T(4); });
    std::array<std::vector<T>, 3> cubes{std::vector<T>(n), std::vector<T>(n), std::vector<T>(n)};
    calx::vmap(powers).into(cubes)(x);
    check_column("into(std::array of columns)", cubes[2], n, [&](std::size_t i) { return x[i] * x[i] * x[i]; });
  }
  // A std::array buffer for a std::array batch.
  const std::array<T, 7> x7{1, 2, 3, 4, 5, 6, 7};
  std::array<T, 7> out7{};
  calx::vmap(poly).into(out7)(x7);
  const auto want7 = calx::vmap(poly)(x7);
  check_column("into(std::array<T, 7>)", out7, 7, [&](std::size_t i) { return want7[i]; });
}

TEST_CASE("vmap(f).into(out) with a buffer of the wrong length throws before writing anything", "[vmap]") {
  const std::vector<double> x{1, 2, 3, 4, 5}, y{5, 4, 3, 2, 1};
  std::vector<double> short_buffer(4, -1.0);
  CHECK_THROWS_MATCHES(calx::vmap(mul_add).into(short_buffer)(x, y), std::invalid_argument,
                       Catch::Matchers::Message("calx::vmap: an output buffer has 4 elements for a batch of 5"));
  CHECK(short_buffer == std::vector<double>(4, -1.0));
  // The second buffer of a structure is checked before the first is written.
  std::tuple<std::vector<double>, std::vector<double>> pair_of(std::vector<double>(5, -1.0),
                                                               std::vector<double>(6, -1.0));
  CHECK_THROWS_MATCHES(calx::vmap(split, calx::in_axes<0, calx::none>).into(pair_of)(x, 2.0), std::invalid_argument,
                       Catch::Matchers::Message("calx::vmap: an output buffer has 6 elements for a batch of 5"));
  CHECK(std::get<0>(pair_of) == std::vector<double>(5, -1.0));
  std::vector<double> empty;
  CHECK_THROWS_WITH(calx::vmap(poly).into(empty)(x), Contains("has 0 elements for a batch of 5"));
}

// ---------------------------------------------------------------------------------------
// Batches of different lengths: std::invalid_argument naming both lengths and arguments.

TEST_CASE("vmap over batches of different lengths throws std::invalid_argument naming both", "[vmap]") {
  const std::vector<double> five{1, 2, 3, 4, 5}, two{1, 2}, three_{1, 2, 3}, none_;
  CHECK_THROWS_MATCHES(
      calx::vmap(mul_add)(five, two), std::invalid_argument,
      Catch::Matchers::Message("calx::vmap: batched arguments have different lengths: argument 0 has 5 "
                               "samples, argument 1 has 2"));
  // Positions count every argument, broadcast ones included.
  constexpr auto three_args = [](auto x, auto w, auto z) { return x * w + z; };
  CHECK_THROWS_WITH(calx::vmap(three_args, calx::in_axes<0, calx::none, 0>)(five, 1.0, three_),
                    StartsWith("calx::vmap:") && Contains("argument 0 has 5 samples") && Contains("argument 2 has 3"));
  CHECK_THROWS_WITH(calx::vmap(mul_add)(none_, three_),
                    Contains("argument 0 has 0 samples") && Contains("argument 1 has 3"));
  CHECK_THROWS_WITH(calx::vmap(mul_add)(three_, none_),
                    Contains("argument 0 has 3 samples") && Contains("argument 1 has 0"));
  // Array-of-struct, span and std::array batches are measured in samples too.
  const std::vector<std::array<double, 3>> aos(4);
  CHECK_THROWS_WITH(calx::vmap(aos_and_column, calx::in_axes<0, 0, calx::none>)(aos, five, 1.0),
                    Contains("argument 0 has 4 samples") && Contains("argument 1 has 5"));
  CHECK_THROWS_WITH(calx::vmap(mul_add)(std::span<const double>(five).subspan(1), five),
                    Contains("argument 0 has 4 samples") && Contains("argument 1 has 5"));
  // Two std::arrays of different lengths are refused at compile time
  // (tests/fail/vmap_static_lengths.cpp); a std::array and a vector are checked at run time.
  const std::array<double, 3> a3{1, 2, 3};
  STATIC_REQUIRE(std::is_same_v<decltype(calx::vmap(mul_add)(a3, a3)), std::array<double, 3>>);
  CHECK_THROWS_WITH(calx::vmap(mul_add)(a3, five), Contains("argument 0 has 3 samples") && Contains("argument 1 has 5"));
}

}  // namespace
