/// @file tests/jvp.cpp
/// @brief `calx::jvp(f, primals, tangents)`: values and tangents, structured primals and
/// outputs, has_aux, and tangents known to be zero (no node in the program). The laws
/// (jvp against finite differences, linearity, the adjoint identity) are instantiated for
/// every primitive in grad.laws.*.cpp; misuse that stops compilation is in tests/fail/jvp_*.cpp.

#include <_include/float_compare.hpp>
#include <_include/ir_inspect.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using calx_test::within_ulps;

/// Whether any node of `ir` reads node `id`.
template <class IR>
constexpr bool reads(const IR& ir, int id) {
  for (std::size_t k = 0; k < IR::operand_count; ++k)
    if (ir.operands[k] == id) return true;
  for (int o : ir.outputs)
    if (o == id) return true;
  return false;
}

TEST_CASE("jvp: the value and the directional derivative", "[transform][jvp]") {
  constexpr auto f = [](auto x, auto y) { return x * calx::sin(y); };
  const auto [v, t] = calx::jvp(f, std::tuple{2.0, 0.5}, std::tuple{1.0, 0.0});
  CHECK(v == 2.0 * std::sin(0.5));
  CHECK(t == std::sin(0.5));
  const auto [v2, t2] = calx::jvp(f, std::tuple{2.0, 0.5}, std::tuple{0.25, -3.0});
  CHECK(v2 == v);
  // 0.25 sin y + x cos y (-3): the same two products, added once.
  CHECK(within_ulps(t2, 0.25 * std::sin(0.5) + 2.0 * std::cos(0.5) * -3.0, 4));
  // A zero tangent gives a zero tangent.
  CHECK(calx::jvp(f, std::tuple{2.0, 0.5}, std::tuple{0.0, 0.0}).second == 0.0);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jvp(f, std::tuple{2.0, 0.5}, std::tuple{1.0, 0.0})),
                                std::pair<double, double>>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jvp(f, std::tuple{2.0f, 0.5f}, std::tuple{1.0f, 0.0f})),
                                std::pair<float, float>>);
  CHECK(calx::jvp(f, std::tuple{2.0f, 0.5f}, std::tuple{1.0f, 0.0f}).second == std::sin(0.5f));
  // One argument: still tuples.
  CHECK(calx::jvp(calx::exp, std::tuple{0.0}, std::tuple{3.0}) == std::pair{1.0, 3.0});
}

TEST_CASE("jvp: structured primals and tangents, structured outputs", "[transform][jvp][tree]") {
  SECTION("std::array argument, std::tuple output") {
    constexpr auto f = [](const auto& v) { return std::tuple{v[0] * v[1], v[1] + v[2], v[2] * v[2]}; };
    const std::array<double, 3> x{1.0, 2.0, 3.0}, t{0.5, -1.0, 2.0};
    const auto [v, tan] = calx::jvp(f, std::tuple{x}, std::tuple{t});
    CHECK(v == std::tuple{2.0, 5.0, 9.0});
    CHECK(tan == std::tuple{0.5 * 2.0 + 1.0 * -1.0, -1.0 + 2.0, 2.0 * 3.0 * 2.0});
    STATIC_REQUIRE(std::is_same_v<decltype(tan), const std::tuple<double, double, double>>);
  }
  SECTION("std::pair and a scalar, std::array output") {
    constexpr auto f = [](const auto& p, auto s) { return std::array{p.first * s, p.second - s}; };
    const auto [v, tan] = calx::jvp(f, std::tuple{std::pair{2.0, 3.0}, 4.0}, std::tuple{std::pair{1.0, 0.0}, 0.5});
    CHECK(v == std::array{8.0, -1.0});
    CHECK(tan == std::array{1.0 * 4.0 + 2.0 * 0.5, -0.5});
  }
  SECTION("nested output") {
    constexpr auto f = [](auto x) { return std::pair{x * x, std::array{x, -x}}; };
    const auto [v, tan] = calx::jvp(f, std::tuple{3.0}, std::tuple{2.0});
    CHECK(v == std::pair{9.0, std::array{3.0, -3.0}});
    CHECK(tan == std::pair{12.0, std::array{2.0, -2.0}});
  }
}

TEST_CASE("jvp with has_aux: (value, tangent, aux)", "[transform][jvp][has_aux]") {
  constexpr auto f = [](auto x, auto y) { return std::pair{x * y, std::tuple{x - y, calx::exp(x)}}; };
  const auto [v, t, aux] = calx::jvp(f, std::tuple{2.0, 3.0}, std::tuple{1.0, 1.0}, calx::has_aux);
  CHECK(v == 6.0);
  CHECK(t == 5.0);
  CHECK(aux == std::tuple{-1.0, std::exp(2.0)});
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jvp(f, std::tuple{2.0, 3.0}, std::tuple{1.0, 1.0}, calx::has_aux)),
                                std::tuple<double, double, std::tuple<double, double>>>);
}

TEST_CASE("jvp with argnums: tangents only for the arguments named, data without zeros", "[transform][jvp][argnums]") {
  // f(x, y, k) = sin(x) y + k x^2: the tangent in x is cos(x) y + 2 k x, in y sin(x).
  constexpr auto f = [](auto x, auto y, auto k) { return calx::sin(x) * y + k * x * x; };
  const double x = 0.75, y = -1.5, k = 3.0;
  const auto full = calx::jvp(f, std::tuple{x, y, k}, std::tuple{1.0, 0.0, 0.0});
  const auto [v, t] = calx::jvp(f, std::tuple{x, y, k}, std::tuple{1.0}, calx::argnums<0>);
  // Bitwise the jvp with zero tangents for the data: the same program after zero tangents
  // are dropped (symbolic zeros).
  CHECK(v == full.first);
  CHECK(t == full.second);
  CHECK(within_ulps(t, std::cos(x) * y + 2.0 * k * x, 4));
  // Negative indices count from the end; the tangents follow argnums' order.
  CHECK(calx::jvp(f, std::tuple{x, y, k}, std::tuple{1.0}, calx::argnums<-2>).second == std::sin(x));
  const double t_yx = calx::jvp(f, std::tuple{x, y, k}, std::tuple{2.0, 0.5}, calx::argnums<1, 0>).second;
  CHECK(within_ulps(t_yx, std::sin(x) * 2.0 + (std::cos(x) * y + 2.0 * k * x) * 0.5, 8));
  // Data may hold integers (never differentiated), and options come in any order.
  const auto [vi, ti, aux] = calx::jvp([](auto a, auto n) { return std::pair{a * n, n * 1.0}; }, std::tuple{1.5, 4},
                                       std::tuple{1.0}, calx::has_aux, calx::argnums<0>);
  CHECK(vi == 6.0);
  CHECK(ti == 4.0);
  CHECK(aux == 4.0);
  // Structured arguments: the tangent of the array argument only.
  constexpr auto g = [](const auto& w, auto s) { return s * (w[0] * w[1] + w[2]); };
  const std::array<double, 3> w{1.0, 2.0, 3.0};
  CHECK(calx::jvp(g, std::tuple{w, 2.0}, std::tuple{std::array{1.0, 0.0, 1.0}}, calx::argnums<0>).second ==
        2.0 * (2.0 + 1.0));
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jvp(f, std::tuple{1.0f, 2.0f, 3.0f}, std::tuple{1.0f}, calx::argnums<0>)),
                                std::pair<float, float>>);
}

TEST_CASE("jvp with argnums on tensors, and inside a trace", "[transform][jvp][argnums][tensor]") {
  // A data matrix A with no tangent: the jvp of tanh(A x) . 1 in x alone.
  constexpr auto f = [](const auto& a, const auto& x) { return calx::sum(calx::tanh(calx::matvec(a, x))); };
  calx::tensor<double, 2, 3> a;
  calx::tensor<double, 3> x, tx;
  const double av[] = {0.5, -1.0, 2.0, 0.25, 1.5, -0.75}, xv[] = {0.1, -0.2, 0.3}, tv[] = {1.0, 0.5, -2.0};
  for (std::size_t k = 0; k < 6; ++k) a[k] = av[k];
  for (std::size_t k = 0; k < 3; ++k) {
    x[k] = xv[k];
    tx[k] = tv[k];
  }
  const double t = calx::jvp(f, std::tuple{a, x}, std::tuple{tx}, calx::argnums<1>).second;
  double expect = 0.0, magnitude = 0.0;
  for (int i = 0; i < 2; ++i) {
    double z = 0.0, dz = 0.0;
    for (int j = 0; j < 3; ++j) {
      z += av[3 * i + j] * xv[j];
      dz += av[3 * i + j] * tv[j];
    }
    expect += (1.0 - std::tanh(z) * std::tanh(z)) * dz;
    magnitude += std::abs((1.0 - std::tanh(z) * std::tanh(z)) * dz);
  }
  // The two rows' terms (about -1.9 and 1.8) cancel to -0.12: the error bound is relative
  // to their magnitudes, not to the result (the order of the adds and fma contraction differ).
  CHECK(std::abs(t - expect) <= 16 * std::numeric_limits<double>::epsilon() * magnitude);
  // Inside a trace: the jvp in x of x y as a traced function of (x, y); its gradient in y is
  // the tangent's derivative, 1.
  constexpr auto h = [](auto u, auto v) {
    return calx::jvp([](auto p, auto q) { return p * q; }, std::tuple{u, v}, std::tuple{v}, calx::argnums<0>).second;
  };
  CHECK(h(2.0, 3.0) == 9.0);  // q tp = v * v
  CHECK(calx::grad(h, calx::argnums<1>)(2.0, 3.0) == 6.0);
}

// ---------------------------------------------------------------------------------------
// Tangents known to be zero make no node.

constexpr auto ignores_y = [](auto x, auto y) {
  (void)y;
  return x * x;
};

/// The jvp as a function of (primals, tangents), traced: its program is the tangent map.
constexpr auto tangent_map = [](auto x, auto y, auto tx, auto ty) {
  return calx::jvp(ignores_y, std::tuple{x, y}, std::tuple{tx, ty}).second;
};

constexpr bool ignored_argument_tangent_makes_no_node() {
  using P = decltype(calx::trace(tangent_map, 1.0, 2.0, 3.0, 4.0));
  // 2 x tx: inputs a b c d, then x*tx once (tx*x + x*tx is one node by CSE) and its double.
  // Nothing reads ty (nor y).
  return P::ir.size == 6 && !reads(P::ir, P::ir.inputs[3]) && !reads(P::ir, P::ir.inputs[1]);
}

constexpr bool forward_jacobian_of_an_ignored_argument_is_the_constant_0() {
  using P = decltype(calx::trace(calx::jacfwd(ignores_y, calx::argnums<1>), 1.0, 2.0));
  return P::ir.size == 3 && calx_test::count_operations(P::ir) == 0 &&
         calx_test::output_op(P::ir, 0) == calx_test::op_of<calx::constant_op>();
}

constexpr bool stop_gradient_tangent_is_the_constant_0() {
  constexpr auto g = [](auto x, auto t) {
    return calx::jvp([](auto u) { return 2.0 * calx::stop_gradient(u * u); }, std::tuple{x}, std::tuple{t}).second;
  };
  using P = decltype(calx::trace(g, 1.0, 1.0));
  return P::ir.size == 3 && calx_test::output_op(P::ir, 0) == calx_test::op_of<calx::constant_op>() &&
         calx_test::has_constant(P::ir, 0.0);
}

TEST_CASE("jvp: tangents known to be zero make no node", "[transform][jvp][ir]") {
  CHECK(ignored_argument_tangent_makes_no_node());
  STATIC_REQUIRE(ignored_argument_tangent_makes_no_node());
  CHECK(forward_jacobian_of_an_ignored_argument_is_the_constant_0());
  STATIC_REQUIRE(forward_jacobian_of_an_ignored_argument_is_the_constant_0());
  CHECK(stop_gradient_tangent_is_the_constant_0());
  STATIC_REQUIRE(stop_gradient_tangent_is_the_constant_0());
  CHECK(tangent_map(1.5, 2.0, 3.0, 4.0) == 9.0);
  CHECK(calx::to_string(calx::trace(tangent_map, 1.0, 2.0, 3.0, 4.0)) ==
        "{ lambda a:f64 b:f64 c:f64 d:f64 . let\n    e:f64 = mul a c\n    f:f64 = add e e\n  in (f) }");
}

TEST_CASE("jvp: only the ops a tangent reaches are differentiated", "[transform][jvp][ir]") {
  // f(x, y) = sin(x) * exp(y) with a tangent map in both: the tangent of exp(y) is
  // exp(y) * ty, reusing the primal's exp node; cos(x) appears once.
  constexpr auto m = [](auto x, auto y, auto tx, auto ty) {
    return calx::jvp([](auto a, auto b) { return calx::sin(a) * calx::exp(b); }, std::tuple{x, y}, std::tuple{tx, ty})
        .second;
  };
  using P = decltype(calx::trace(m, 1.0, 2.0, 3.0, 4.0));
  STATIC_REQUIRE(calx_test::count_op<calx::exp_op>(P::ir) == 1);
  STATIC_REQUIRE(calx_test::count_op<calx::cos_op>(P::ir) == 1);
  STATIC_REQUIRE(calx_test::count_op<calx::sin_op>(P::ir) == 1);
  CHECK(within_ulps(m(1.0, 2.0, 3.0, 4.0), 3.0 * std::cos(1.0) * std::exp(2.0) + std::sin(1.0) * std::exp(2.0) * 4.0, 8));
}

TEST_CASE("jvp: misuse stops compilation with a message", "[transform][jvp][rejection]") {
  // calx::jvp's checks (tangent structure, primals as a tuple, captures, has_aux's pair)
  // are static_asserts in its body (tests/fail/jvp_*.cpp), so they are not visible to
  // requires-expressions: std::invocable<calx::jvp_fn, F, double, double> would be a hard
  // error, not false. What is visible: the ops' own constraints.
  STATIC_REQUIRE(!std::invocable<decltype(calx::exp), double, double>);
  STATIC_REQUIRE(std::invocable<decltype(calx::exp), calx::tracer>);
  SUCCEED();
}

}  // namespace
