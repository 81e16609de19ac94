/// @file tests/custom_jvp.cpp
/// @brief calx::custom_jvp: a forward returning its result and a jvp closure. Forward mode
/// uses the closure; reverse mode transposes it; log1pexp keeps finite derivatives at
/// x = ±1000 under grad, vmap(grad) and grad(grad), where differentiating its forward would
/// give NaN. The transform matrix is in tests/custom_jvp.matrix.cpp.

#include <_include/ir_inspect.hpp>
#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

template <class T>
T sigmoid(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

// A product with its jvp closure: linear in (tx, ty).
constexpr auto prod = calx::custom_jvp([](auto x, auto y) {
  return std::pair{x * y, [=](auto tx, auto ty) { return tx * y + x * ty; }};
});
constexpr auto wrapped = calx::custom_vjp([](auto x) {
  return std::pair{prod(x, x), [=](auto g) { return std::tuple{g * 4.0 * x}; }};
});

}  // namespace

TEMPLATE_TEST_CASE("log1pexp has finite derivatives at +-1000: the closure, not the forward, is differentiated",
                   "[custom_jvp]", float, double) {
  using T = TestType;
  for (T x : {T(-1000), T(-40), T(-1), T(0), T(2.5), T(40), T(1000)}) {
    INFO("x = " << x);
    const T d1 = calx::grad(user::log1pexp)(x);
    const T d2 = calx::grad(calx::grad(user::log1pexp))(x);
    CHECK(std::isfinite(d1));
    CHECK(std::isfinite(d2));
    CHECK(calx_test::matrix::close(d1, sigmoid(x)));
    CHECK(calx_test::matrix::close(d2, sigmoid(x) * (T(1) - sigmoid(x))));
    CHECK(calx_test::matrix::close(calx::jvp(user::log1pexp, std::tuple{x}, std::tuple{T(2)}).second, T(2) * sigmoid(x)));
    const std::vector<T> xs{x, -x};
    const auto g = calx::vmap(calx::grad(user::log1pexp))(xs);
    CHECK(calx_test::matrix::close(g[0], sigmoid(x)));
    CHECK(calx_test::matrix::close(g[1], sigmoid(-x)));
    CHECK(std::isfinite(user::log1pexp(x)));
  }
}

TEST_CASE("custom_jvp: one node; forward mode calls the closure, reverse mode transposes it", "[custom_jvp]") {
  const auto p = calx::trace([](auto x) { return user::log1pexp(x); }, 1.0);
  CHECK(calx_test::count_named(p.ir, "custom_jvp") == 1);
  // The gradient is the transposed closure: sigmoid(x), with no trace of the forward's where.
  const auto g = calx::trace(calx::grad(user::log1pexp), 1.0);
  CHECK(calx_test::count_named(g.ir, "sigmoid") == 1);
  CHECK(calx_test::count_named(g.ir, "where") == 0);
  CHECK(calx_test::count_operations(g.ir) == 1);
  CHECK(calx::detail::describe<calx::detail::custom_jvp_op<std::remove_const_t<decltype(user::log1pexp)>::fwd_type, calx::tracer>>()
            .vjp_from == calx::detail::rule_source::transposed);
}

TEST_CASE("custom_jvp on several arguments, and inside a custom_vjp", "[custom_jvp]") {
  const auto [gx, gy] = calx::grad(prod, calx::argnums<0, 1>)(2.0, 3.0);
  CHECK(gx == 3.0);
  CHECK(gy == 2.0);
  // A custom_vjp whose forward calls the custom_jvp function: reverse mode uses the
  // custom_vjp's backward; forward mode differentiates its forward, i.e. prod's closure.
  CHECK(calx::grad(wrapped)(1.5) == 6.0);                                        // the backward: 4x
  CHECK(calx::jvp(wrapped, std::tuple{1.5}, std::tuple{1.0}).second == 3.0);     // 2x
}
