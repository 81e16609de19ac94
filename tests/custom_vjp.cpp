/// @file tests/custom_vjp.cpp
/// @brief calx::custom_vjp: a forward returning its result and a backward closure. Reverse
/// mode uses the closure (clip_gradient's clipping reaches the gradient, not the identity's
/// derivative); forward mode differentiates the forward; the backward is traced code, so
/// second derivatives differentiate through it. The transform matrix (my_mul against the
/// chain rule) is in tests/custom_vjp.matrix.cpp.

#include <_include/ir_inspect.hpp>
#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

// clip_gradient at the front of a chain: the cotangent that reaches it is 5 * 2x, clipped to
// [-1, 1], then times d(3x)/dx = 3.
constexpr auto clipped = [](auto x) { return 5.0 * calx::sin(user::clip_gradient(3.0 * x)) * 2.0; };

// A rotation of a std::array by an angle, with its true vjp written by hand.
constexpr auto rotate = calx::custom_vjp([](auto v, auto a) {
  auto c = calx::cos(a), s = calx::sin(a);
  auto out = std::array{c * v[0] - s * v[1], s * v[0] + c * v[1]};
  return std::pair{out, [=](auto g) {
                     auto gv = std::array{c * g[0] + s * g[1], -s * g[0] + c * g[1]};
                     auto ga = g[0] * (-s * v[0] - c * v[1]) + g[1] * (c * v[0] - s * v[1]);
                     return std::tuple{gv, ga};
                   }};
});
constexpr auto rotate_ref = [](auto v, auto a) {
  auto c = calx::cos(a), s = calx::sin(a);
  return std::array{c * v[0] - s * v[1], s * v[0] + c * v[1]};
};
constexpr auto loss = [](auto v, auto a) {
  auto r = rotate(v, a);
  return r[0] * r[0] * 3.0 + r[1];
};
constexpr auto loss_ref = [](auto v, auto a) {
  auto r = rotate_ref(v, a);
  return r[0] * r[0] * 3.0 + r[1];
};

constexpr auto outer = calx::custom_vjp([](auto x) {
  auto y = user::my_mul(x, x);
  return std::pair{y, [=](auto g) { return std::tuple{2.0 * g * x}; }};
});

}  // namespace

TEST_CASE("custom_vjp on numbers returns the forward's result; traced, it is one node", "[custom_vjp]") {
  CHECK(user::my_mul(2.0, 3.0) == 6.0);
  CHECK(user::my_mul(2.0f, 3.0f) == 6.0f);
  CHECK(user::clip_gradient(7.5) == 7.5);
  const auto p = calx::trace([](auto x, auto y) { return user::my_mul(x, y); }, 1.0, 1.0);
  CHECK(calx_test::count_named(p.ir, "custom_vjp") == 1);
  CHECK(calx::to_string(p).find("custom_vjp a b") != std::string::npos);
  CHECK(p(2.0, 3.0) == 6.0);
}

TEMPLATE_TEST_CASE("clip_gradient's backward, not the identity's derivative, reaches the gradient", "[custom_vjp]",
                   float, double) {
  using T = TestType;
  for (T x : {T(-0.9), T(0.1), T(0.7)}) {
    const T inner = T(10) * std::cos(T(3) * x);  // the cotangent at clip_gradient
    const T want = std::max(std::min(inner, T(1)), T(-1)) * T(3);
    CHECK(calx_test::matrix::close(calx::grad(clipped)(x), want));
    // vjp, value_and_grad and jacrev are reverse mode too.
    CHECK(calx_test::matrix::close(calx::value_and_grad(clipped)(x).second, want));
    CHECK(calx_test::matrix::close(calx::jacrev(clipped)(x), want));
    const auto [v, pb] = calx::vjp(clipped, x);
    CHECK(calx_test::matrix::close(std::get<0>(pb(T(1))), want));
    // Forward mode differentiates the forward (the identity): no clipping.
    CHECK(calx_test::matrix::close(calx::jvp(clipped, std::tuple{x}, std::tuple{T(1)}).second, T(3) * inner));
    // vmap(grad) clips per sample.
    const std::vector<T> xs{x, T(0.5) * x};
    const auto g = calx::vmap(calx::grad(clipped))(xs);
    CHECK(calx_test::matrix::close(g[0], want));
  }
  // The second derivative differentiates the traced backward, 3 clamp(10 cos c, -1, 1) with
  // c = clip_gradient(3x), and the outer reverse pass goes through clip_gradient's rule again:
  // the cotangent reaching c, 3 clamp'(10 cos c) (-10 sin c), is clipped to [-1, 1], times 3.
  // Where the inner clamp saturates (x = 0.1: 10 cos 0.3 = 9.55) that is 0.
  CHECK(calx_test::matrix::close(calx::grad(calx::grad(clipped))(T(0.1)), T(0)));
  const T inside = T(0.5);  // 10 cos(1.5) = 0.707: not saturated; the cotangent -29.9 clips to -1
  const T ct = T(3) * T(-10) * std::sin(T(3) * inside);
  CHECK(calx_test::matrix::close(calx::grad(calx::grad(clipped))(inside), std::max(std::min(ct, T(1)), T(-1)) * T(3)));
}

TEST_CASE("custom_vjp on structured arguments and results", "[custom_vjp]") {
  const std::array<double, 2> v{0.5, -1.25};
  const auto p = calx::trace(loss, v, 0.3);
  CHECK(calx_test::count_named(p.ir, "custom_vjp") == 1);
  CHECK(calx_test::count_named(p.ir, "get") == 2);  // the node has two results
  calx_test::matrix::compare("rotate grad", calx::grad(loss, calx::argnums<0, 1>)(v, 0.3),
                             calx::grad(loss_ref, calx::argnums<0, 1>)(v, 0.3));
  calx_test::matrix::compare("rotate jacfwd", calx::jacfwd(rotate, calx::argnums<0, 1>)(v, 0.3),
                             calx::jacfwd(rotate_ref, calx::argnums<0, 1>)(v, 0.3));
  calx_test::matrix::compare("rotate jacrev", calx::jacrev(rotate, calx::argnums<0, 1>)(v, 0.3),
                             calx::jacrev(rotate_ref, calx::argnums<0, 1>)(v, 0.3));
  calx_test::matrix::compare("rotate hessian", calx::hessian(loss, calx::argnums<1>)(v, 0.3),
                             calx::hessian(loss_ref, calx::argnums<1>)(v, 0.3));
  const std::vector<std::array<double, 2>> vs{v, {1.0, 2.0}, {-3.0, 0.5}};
  calx_test::matrix::compare("rotate vmap(grad)", calx::vmap(calx::grad(loss), calx::in_axes<0, calx::none>)(vs, 0.3),
                             calx::vmap(calx::grad(loss_ref), calx::in_axes<0, calx::none>)(vs, 0.3));
}

TEST_CASE("custom_vjp nests: a custom function whose forward calls another one", "[custom_vjp]") {
  CHECK(calx::grad(outer)(1.5) == 3.0);
  CHECK(calx::grad(calx::grad(outer))(1.5) == 2.0);
  const auto [v, t] = calx::jvp(outer, std::tuple{1.5}, std::tuple{1.0});
  CHECK(v == 2.25);
  CHECK(t == 3.0);  // forward mode differentiates the forward: my_mul's forward, x * x
}
