/// @file tests/jacobian.basis.0.cpp
/// @brief Jacobians over tensors of more than `unrolled_basis_max` (8) elements: one loop
/// over the basis per input (jacfwd) or output (jacrev) value, not a pass per element
/// (detail/call/jacobian.hpp). The numbers are those of jvp and vjp along each basis
/// vector and of the closed forms, the blocks lie as JAX lays them out, vmap runs the loop
/// per SIMD group, and the IR is the same size whatever the number of elements.
/// Part 0: first-order Jacobians (part 1: Hessians, a third derivative and vmap; part 2:
/// the IR's size).

#include <_include/float_compare.hpp>
#include <_include/jacobian_basis_cases.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using calx_test::within_ulps;

using namespace calx_test::basis_cases;

TEST_CASE("jacfwd, jacrev over 40 elements: jvp and vjp along each basis vector, and the closed form",
          "[transform][jacfwd][jacrev][basis]") {
  constexpr int N = 40;
  const vec<N> x = ramp<N>(-1.3, 0.1);
  const auto jf = calx::jacfwd(squashed{})(x);
  const auto jr = calx::jacrev(squashed{})(x);
  STATIC_REQUIRE(std::is_same_v<decltype(jf), const calx::tensor<double, N, N>>);
  STATIC_REQUIRE(std::is_same_v<decltype(jr), const calx::tensor<double, N, N>>);
  for (int j = 0; j < N; ++j) {
    INFO("basis vector " << j);
    // Column j is the tangent along e_j, row j the cotangent from e_j: the same arithmetic
    // as the loop's step j, so the same numbers.
    const auto column = calx::jvp(squashed{}, std::tuple{x}, std::tuple{basis<N>(j)}).second;
    const auto row = calx::vjp(squashed{}, x).second(basis<N>(j));
    for (int i = 0; i < N; ++i) {
      CHECK(jf[static_cast<std::size_t>(i * N + j)] == column[i]);
      CHECK(jr[static_cast<std::size_t>(j * N + i)] == std::get<0>(row)[i]);
      // The closed form sums in another order: a few ulps apart.
      CHECK(within_ulps(jf[static_cast<std::size_t>(i * N + j)], squashed_entry<N>(x, i, j), 8));
      CHECK(within_ulps(jr[static_cast<std::size_t>(i * N + j)], squashed_entry<N>(x, i, j), 8));
    }
  }
}

/// Two inputs (a tensor of 20, one of 3) and two outputs (a tensor of 20, a scalar): blocks
/// from a loop (over x forward, over u reverse) beside blocks written out (over y forward,
/// over v reverse).
struct mixed {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    const auto u = calx::tanh(x) * y(0) + x * calx::sum(y);
    const auto v = calx::sum(x * x) * y(2);
    return std::pair{u, v};
  }
};

TEST_CASE("jacfwd, jacrev of several tensors: output-major blocks, loops beside written-out passes",
          "[transform][jacfwd][jacrev][basis]") {
  const vec<20> x = ramp<20>(-0.9, 0.09);
  const vec<3> y = ramp<3>(0.5, 0.25);
  const auto jf = calx::jacfwd(mixed{}, calx::argnums<0, 1>)(x, y);
  const auto jr = calx::jacrev(mixed{}, calx::argnums<0, 1>)(x, y);
  using J = std::pair<std::tuple<calx::tensor<double, 20, 20>, calx::tensor<double, 20, 3>>,
                      std::tuple<calx::tensor<double, 20>, calx::tensor<double, 3>>>;
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(jf)>, J>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(jr)>, J>);
  const double sy = y[0] + y[1] + y[2];
  double sxx = 0;
  for (int i = 0; i < 20; ++i) sxx += x[i] * x[i];
  for (int i = 0; i < 20; ++i) {
    INFO("row " << i);
    const double t = std::tanh(x[i]);
    for (int j = 0; j < 20; ++j) {
      const double want = i == j ? (1 - t * t) * y[0] + sy : 0.0;
      CHECK(within_ulps(std::get<0>(jf.first)[static_cast<std::size_t>(i * 20 + j)], want, 2));
      CHECK(within_ulps(std::get<0>(jr.first)[static_cast<std::size_t>(i * 20 + j)], want, 2));
    }
    const double du_dy[3] = {t + x[i], x[i], x[i]};
    for (int k = 0; k < 3; ++k) {
      CHECK(within_ulps(std::get<1>(jf.first)[static_cast<std::size_t>(i * 3 + k)], du_dy[k], 2));
      CHECK(within_ulps(std::get<1>(jr.first)[static_cast<std::size_t>(i * 3 + k)], du_dy[k], 2));
    }
    CHECK(within_ulps(std::get<0>(jf.second)[i], 2 * x[i] * y[2], 2));
    CHECK(within_ulps(std::get<0>(jr.second)[i], 2 * x[i] * y[2], 2));
  }
  const double dv_dy[3] = {0.0, 0.0, sxx};
  for (int k = 0; k < 3; ++k) {
    CHECK(within_ulps(std::get<1>(jf.second)[k], dv_dy[k], 8));  // sxx summed in another order
    CHECK(within_ulps(std::get<1>(jr.second)[k], dv_dy[k], 8));
  }
}

}  // namespace
