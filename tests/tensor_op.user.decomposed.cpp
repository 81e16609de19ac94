/// @file tests/tensor_op.user.decomposed.cpp
/// @brief User tensor ops (tests/_include/user_tensor_ops.hpp): an op with a decomposition only (rules
/// from it), both ops under vmap (SIMD lanes), and in float.

#include <_include/user_tensor_ops.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

using namespace tensor_op_test;

TEST_CASE("a user tensor op with only a decomposition takes its rules from it", "[tensor_op][user]") {
  const vec8 x = sample8(0.7);
  vec3 kk;
  kk[0] = 0.5, kk[1] = -1.25, kk[2] = 0.75;
  const auto y = tl::conv1d(x, kk);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(y)>, calx::tensor<double, 6>>);
  for (std::size_t i = 0; i < 6; ++i) CHECK(y[i] == Approx(x[i] * 0.5 - x[i + 1] * 1.25 + x[i + 2] * 0.75).epsilon(1e-14));
  CHECK(with_conv(x, kk) == Approx(with_conv_builtin(x, kk)).epsilon(1e-14));

  const auto [gx, gk] = calx::grad(with_conv, calx::argnums<0, 1>)(x, kk);
  const auto [gxb, gkb] = calx::grad(with_conv_builtin, calx::argnums<0, 1>)(x, kk);
  CHECK(max_diff(gx, gxb) <= 1e-12);
  CHECK(max_diff(gk, gkb) <= 1e-12);
  CHECK(max_diff(gx, central_difference(with_conv, x, kk)) <= 1e-7);
  CHECK(max_diff(gk, central_difference([](const auto& k2, const auto& x2) { return with_conv(x2, k2); }, kk, x)) <= 1e-7);

  const auto h = calx::hessian(with_conv)(x, kk);
  const auto hb = calx::hessian(with_conv_builtin)(x, kk);
  CHECK(max_diff(h, hb) <= 1e-12);
}


TEST_CASE("a user tensor op under vmap runs per sample (SIMD lanes)", "[tensor_op][user][vmap]") {
  std::vector<vec8> xs;
  for (int s = 0; s < 13; ++s) xs.push_back(sample8(0.1 * s));
  const auto ys = calx::vmap(with_cumsum)(xs);
  const auto gs = calx::vmap(calx::grad(with_cumsum))(xs);
  const auto cs = calx::vmap([](const auto& v) { return tl::cumsum(v); })(xs);
  REQUIRE(ys.size() == xs.size());
  for (std::size_t s = 0; s < xs.size(); ++s) {
    INFO("sample " << s);
    CHECK(double(ys[s]) == Approx(with_cumsum_builtin(xs[s])).epsilon(1e-13));
    const vec8 g = gs[s];
    CHECK(max_diff(g, calx::grad(with_cumsum_builtin)(xs[s])) <= 1e-12);
    const vec8 c = cs[s];
    CHECK(max_diff(c, cumsum_builtin(xs[s])) <= 1e-13);
  }
  vec3 k;
  k[0] = 0.25, k[1] = 1.0, k[2] = -0.5;
  const auto cv = calx::vmap(calx::grad(with_conv), calx::in_axes<0, calx::none>)(xs, k);
  for (std::size_t s = 0; s < xs.size(); ++s) {
    const vec8 g = cv[s];
    CHECK(max_diff(g, calx::grad(with_conv_builtin)(xs[s], k)) <= 1e-12);
  }
}


TEST_CASE("a user tensor op in float", "[tensor_op][user][float]") {
  calx::tensor<float, 8> xf;
  vec8 xd;
  const vec8 x = sample8(0.9);
  for (std::size_t i = 0; i < 8; ++i) {
    xf[i] = static_cast<float>(x[i]);
    xd[i] = static_cast<double>(xf[i]);
  }
  const calx::tensor<float, 8> gf = calx::grad(with_cumsum)(xf);
  const vec8 gd = calx::grad(with_cumsum)(xd);
  // float keeps ~7 digits; a sum of 8 terms of order 1.
  for (std::size_t i = 0; i < 8; ++i) CHECK(double(gf[i]) == Approx(gd[i]).margin(1e-5));
}
