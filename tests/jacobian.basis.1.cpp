/// @file tests/jacobian.basis.1.cpp
/// @brief Jacobians over tensors of more than `unrolled_basis_max` (8) elements: one loop
/// over the basis per input (jacfwd) or output (jacrev) value, not a pass per element
/// (detail/call/jacobian.hpp). The numbers are those of jvp and vjp along each basis
/// vector and of the closed forms, the blocks lie as JAX lays them out, vmap runs the loop
/// per SIMD group, and the IR is the same size whatever the number of elements.
/// Part 1: Hessians and a third derivative through the loop, and vmap (part 0: first-order
/// Jacobians; part 2: the IR's size).

#include <_include/float_compare.hpp>
#include <_include/jacobian_basis_cases.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

using calx_test::within_ulps;

using namespace calx_test::basis_cases;

TEST_CASE("hessian over 30 elements, and its jacfwd (third order): the closed forms",
          "[transform][hessian][basis]") {
  constexpr int N = 30;
  const vec<N> x = ramp<N>(-1.1, 0.075);
  const auto h = calx::hessian(energy{})(x);
  STATIC_REQUIRE(std::is_same_v<decltype(h), const calx::tensor<double, N, N>>);
  const auto d3 = calx::jacfwd(calx::hessian(energy{}))(x);
  STATIC_REQUIRE(std::is_same_v<decltype(d3), const calx::tensor<double, N, N, N>>);
  for (int i = 0; i < N; ++i) {
    INFO("i = " << i);
    const double t = std::tanh(x[i]), d = 1 - t * t;
    // d²/dx² (tanh(x) x) = 2 d - 2 t d x, plus 1 from sum(x)^2 / 2 everywhere.
    for (int j = 0; j < N; ++j)
      CHECK(within_ulps(h[static_cast<std::size_t>(i * N + j)], (i == j ? 2 * d - 2 * t * d * x[i] : 0.0) + 1.0, 8));
    // Its derivative: -6 t d + (4 t^2 d - 2 d^2) x, on the diagonal only.
    const double third = -6 * t * d + (4 * t * t * d - 2 * d * d) * x[i];
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        const double got = d3[static_cast<std::size_t>((i * N + j) * N + k)];
        if (i == j && j == k)
          CHECK(std::abs(got - third) <= 1e-14 * (1 + std::abs(third)));  // terms summed in another order
        else
          CHECK(got == 0.0);
      }
  }
}

TEST_CASE("vmap of jacfwd over 24 elements: the loop on SIMD groups, each sample's own Jacobian",
          "[transform][jacfwd][vmap][basis]") {
  constexpr int N = 24;
  constexpr auto scaled = [](const auto& x, auto c) { return calx::tanh(x * c) * calx::sum(x); };
  const vec<N> x = ramp<N>(-1.0, 0.08);
  std::vector<double> cs;
  for (int k = 0; k < 11; ++k) cs.push_back(0.25 + 0.1 * k);  // 11: a partial SIMD group too
  const auto js = calx::vmap(calx::jacfwd(scaled), calx::in_axes<calx::none, 0>)(x, cs);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  REQUIRE(js.size() == cs.size());
  for (std::size_t k = 0; k < cs.size(); ++k) {
    INFO("sample " << k);
    const auto want = calx::jacfwd(scaled)(x, cs[k]);
    for (std::size_t e = 0; e < std::size_t{N * N}; ++e) {
      INFO(e << ": " << calx_test::text(js[k][e]) << " vs " << calx_test::text(want[e]));
      // xsimd's tanh is a few ulps from the scalar libm's, and a diagonal entry adds two
      // terms of opposite sign: bounded relative to |want| + 1, as tests/_include/
      // fori_loop_cases.hpp bounds the SIMD loop's.
      CHECK(std::abs(js[k][e] - want[e]) <= 64 * eps * (1 + std::abs(want[e])));
    }
  }
}

}  // namespace
