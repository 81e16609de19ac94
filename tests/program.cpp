/// @file tests/program.cpp
/// @brief `calx::trace` and `calx::program`: the IR a function becomes (sharing, common
/// subexpressions, folding, dead nodes), structured arguments and results, precision, and
/// agreement between a program and the same function run untransformed.

#include <_include/float_compare.hpp>
#include <_include/ir_inspect.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <span>
#include <string>
#include <vector>
#include <concepts>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using calx_test::count_op;
using calx_test::count_operations;
using calx_test::has_constant;
using calx_test::output_op;
using calx_test::op_of;

// ---------------------------------------------------------------------------------------
// Sharing: a value used twice is one node, so repeated squaring is linear, not exponential.

constexpr auto square_30_times = [](auto x) {
  for (int i = 0; i < 30; ++i) x = x * x;
  return x;
};

constexpr bool sharing_keeps_the_ir_linear() {
  using P = decltype(calx::trace(square_30_times, 1.0));
  return P::ir.size <= 32 && count_op<calx::mul_op>(P::ir) == 30 && P::ir.input_count == 1 &&
         P::ir.output_count == 1;
}

// CSE: sin(x) + sin(x) computes sin once; x * y and y * x are one node.
constexpr auto sin_twice = [](auto x) { return calx::sin(x) + calx::sin(x); };
constexpr auto both_orders = [](auto x, auto y) { return x * y - y * x + (x + y) * (y + x); };

constexpr bool common_subexpressions_are_merged() {
  using P = decltype(calx::trace(sin_twice, 1.0));
  using Q = decltype(calx::trace(both_orders, 1.0, 2.0));
  // Q: c = mul a b; d = sub c c; e = add a b; f = mul e e; g = add d f.
  return count_op<calx::sin_op>(P::ir) == 1 && count_op<calx::add_op>(P::ir) == 1 && P::ir.size == 3 &&
         count_op<calx::mul_op>(Q::ir) == 2 && count_op<calx::add_op>(Q::ir) == 2 &&
         count_op<calx::sub_op>(Q::ir) == 1 && Q::ir.size == 7;
}

// Folding: constants are combined at trace time; identities vanish.
constexpr auto times_six = [](auto x) { return x * (2.0 * 3.0); };
// `calx::where(false, x, 2.0)` is the traced constant 2, so `* 3.0` meets two constants
// inside the graph and must fold there.
constexpr auto folded_in_graph = [](auto x) { return calx::where(false, x, 2.0) * 3.0 * x; };
// x + (-0.0) and x - (+0.0) are exact identities; x + (+0.0) is not (it maps -0 to +0).
constexpr auto identities = [](auto x) { return calx::pow(-(-((x + -0.0) * 1.0 - 0.0) / 1.0), 1.0); };
constexpr auto minus_one_times = [](auto x) { return x * -1.0; };
constexpr auto squared = [](auto x) { return calx::pow(x, 2.0); };
constexpr auto same_branches = [](auto x, auto y) { return calx::where(x < y, x, x) + calx::min(y, y); };

constexpr bool constants_are_folded() {
  using P = decltype(calx::trace(times_six, 1.0));
  using Q = decltype(calx::trace(folded_in_graph, 1.0));
  return P::ir.size == 3 && count_op<calx::mul_op>(P::ir) == 1 && has_constant(P::ir, 6.0) &&
         Q::ir.size == 3 && count_op<calx::mul_op>(Q::ir) == 1 && has_constant(Q::ir, 6.0) &&
         !has_constant(Q::ir, 2.0) && !has_constant(Q::ir, 3.0);
}

constexpr bool identities_vanish() {
  using P = decltype(calx::trace(identities, 1.0));
  using N = decltype(calx::trace(minus_one_times, 1.0));
  using S = decltype(calx::trace(squared, 1.0));
  using B = decltype(calx::trace(same_branches, 1.0, 2.0));
  return P::ir.size == 1 && P::ir.outputs[0] == P::ir.inputs[0] &&                      // x
         N::ir.size == 2 && output_op(N::ir, 0) == op_of<calx::neg_op>() &&             // -x
         S::ir.size == 2 && output_op(S::ir, 0) == op_of<calx::mul_op>() &&             // x * x
         count_op<calx::where_op>(B::ir) == 0 && count_op<calx::lt_op>(B::ir) == 0 &&     // x + y
         count_op<calx::min_op>(B::ir) == 0 && count_operations(B::ir) == 1;
}

// Dead nodes: a value computed but not returned leaves no node; unused inputs stay (they
// are the program's signature).
constexpr auto with_unused_value = [](auto x, auto y) {
  auto unused = calx::exp(x) * y;
  static_cast<void>(unused);
  return calx::sin(x);
};

constexpr bool dead_nodes_are_dropped() {
  using P = decltype(calx::trace(with_unused_value, 1.0, 2.0));
  return P::ir.size == 3 && count_op<calx::exp_op>(P::ir) == 0 && count_op<calx::mul_op>(P::ir) == 0 &&
         count_op<calx::sin_op>(P::ir) == 1 && P::ir.input_count == 2;
}

// A program is built once where its first build keeps it (up to 256 nodes), twice where it
// is larger: either way `materialized::value` is the program a fresh build gives.
constexpr auto chain_of_products = [](auto x) {  // 300 inputs, about 900 nodes
  auto s = x[0] * x[0];
  for (std::size_t i = 1; i < x.size(); ++i) s = s + x[i] * x[i - 1];
  return s;
};

template <class Source>
constexpr bool same_as_a_fresh_build() {
  using M = calx::detail::materialized<Source>;
  calx::detail::graph g = Source::build();
  calx::detail::finalize(g);
  const auto& r = M::value;
  return calx_test::same_nodes_and_lists(g, r) && r.input_offset[g.inputs.size()] == M::sizes[4] &&
         r.output_offset[g.outputs.size()] == M::sizes[5];
}

// Returning an input: the output is the input node itself.
constexpr auto second = [](auto, auto y) { return y; };
constexpr auto twice_x = [](auto x, auto) { return std::pair{x, x}; };

constexpr bool returning_an_input_adds_no_node() {
  using P = decltype(calx::trace(second, 1.0, 2.0));
  using Q = decltype(calx::trace(twice_x, 1.0, 2.0));
  return P::ir.size == 2 && P::ir.outputs[0] == P::ir.inputs[1] && Q::ir.size == 2 && Q::ir.output_count == 2 &&
         Q::ir.outputs[0] == Q::ir.inputs[0] && Q::ir.outputs[1] == Q::ir.inputs[0];
}

// Programs inside programs: a program called on tracers is inlined into the outer trace.
constexpr auto inner = calx::trace([](auto x) { return calx::sin(x) * x; }, 1.0);
constexpr auto outer = [](auto x) { return inner(x) + inner(x) + 1.0; };

constexpr bool programs_inline_into_traces() {
  using P = decltype(calx::trace(outer, 1.0));
  return count_op<calx::sin_op>(P::ir) == 1 && count_op<calx::mul_op>(P::ir) == 1 && count_op<calx::add_op>(P::ir) == 2;
}

// Calls out of line (sin, cos, tan) run back to back in straight-line code: a call runs
// right after the one before it once its operands are ready, so that nothing computed
// between them is live across the second (detail::straight_line_order). The first call
// keeps its place; a call whose operand comes later waits for it.
constexpr auto calls_apart = [](auto x, auto y) {
  const auto a = x * y + 1.0;
  const auto b = calx::sin(x) * y + a;  // between sin and cos in the trace
  const auto c = b * b - y;
  return c + calx::cos(x) * a + calx::tan(0.5 * y);
};

template <class IR, class Order>
constexpr int position_of(const IR& ir, const Order& order, calx::detail::op_ref op) {
  for (std::size_t p = 0; p < IR::size; ++p)
    if (ir.nodes[static_cast<std::size_t>(order[p])].op == op) return static_cast<int>(p);
  return -1;
}

constexpr bool calls_run_back_to_back() {
  constexpr auto& ir = decltype(calx::trace(calls_apart, 1.0, 2.0))::ir;
  using IR = std::remove_cvref_t<decltype(ir)>;
  const auto order = calx::detail::straight_line_order(ir);
  // a permutation in which every node comes after its operands
  std::array<int, IR::size> at{};
  for (int& p : at) p = -1;
  for (std::size_t p = 0; p < IR::size; ++p) {
    const auto j = static_cast<std::size_t>(order[p]);
    if (at[j] != -1) return false;
    for (int i = 0; i < ir.nodes[j].arity; ++i)
      if (at[static_cast<std::size_t>(ir.operand(j, i))] == -1) return false;
    at[j] = static_cast<int>(p);
  }
  const int sin_at = position_of(ir, order, op_of<calx::sin_op>()), cos_at = position_of(ir, order, op_of<calx::cos_op>()),
            tan_at = position_of(ir, order, op_of<calx::tan_op>());
  const auto tan_node = static_cast<std::size_t>(order[static_cast<std::size_t>(tan_at)]);
  const int tan_operand_at = at[static_cast<std::size_t>(ir.operand(tan_node, 0))];
  return order[static_cast<std::size_t>(sin_at)] == sin_at  // the first call keeps its place
         && cos_at == sin_at + 1 && tan_at == tan_operand_at + 1 && tan_at > cos_at + 1;
}

constexpr auto calls_in_a_loop = [](auto x, auto y) {
  return calx::fori_loop(0, 3, [](auto, auto c) { return std::array{calls_apart(c[0], c[1]) * 0.25, c[1]}; },
                         std::array{x, y})[0];
};

}  // namespace

TEST_CASE("repeated squaring shares its operand: 30 squarings, about 30 nodes", "[program][sharing]") {
  CHECK(sharing_keeps_the_ir_linear());
  STATIC_REQUIRE(sharing_keeps_the_ir_linear());
  const auto p = calx::trace(square_30_times, 1.0);
  const double x = 1.0 + std::ldexp(1.0, -40);
  CHECK(p(x) == square_30_times(x));                             // same operations, same rounding
  CHECK(p(x) == Approx(std::exp(std::ldexp(1.0, -10))).epsilon(1e-6));  // (1 + 2^-40)^(2^30)
  CHECK(p(-1.0) == 1.0);
}

TEST_CASE("common subexpressions become one node", "[program][cse]") {
  CHECK(common_subexpressions_are_merged());
  STATIC_REQUIRE(common_subexpressions_are_merged());
  CHECK(calx::trace(sin_twice, 1.0)(0.5) == 2 * std::sin(0.5));
  CHECK(calx::trace(both_orders, 1.0, 2.0)(2.0, 3.0) == 25.0);
}

TEST_CASE("constants fold at trace time and identities vanish", "[program][folding]") {
  CHECK(constants_are_folded());
  STATIC_REQUIRE(constants_are_folded());
  CHECK(identities_vanish());
  STATIC_REQUIRE(identities_vanish());
  CHECK(calx::trace(times_six, 1.0)(1.5) == 9.0);
  CHECK(calx::trace(folded_in_graph, 1.0)(1.5) == 9.0);
  CHECK(calx::trace(identities, 1.0)(-2.5) == -2.5);
  CHECK(calx::trace(minus_one_times, 1.0)(2.5) == -2.5);
  CHECK(calx::trace(squared, 1.0)(-3.0) == 9.0);
  CHECK(calx::trace(same_branches, 1.0, 2.0)(1.0, 2.0) == 3.0);
  // Folding is exact on signed zeros: x + (-0.0) folds and keeps -0; x + 0.0 is computed.
  CHECK(std::signbit(calx::trace(identities, 1.0)(-0.0)));
  CHECK(!std::signbit(calx::trace([](auto x) { return x + 0.0; }, 1.0)(-0.0)));
}

TEST_CASE("constants fold in double, also in float programs", "[program][folding][float]") {
  // 0.1 * 3.0 folds to double 0.30000000000000004 and becomes the float nearest to it;
  // float arithmetic 0.1f * 3.0f rounds twice. Documented behaviour, not float arithmetic.
  const auto p = calx::trace([](auto x) { return calx::where(false, x, 0.1) * 3.0 + x; }, 1.0f);
  CHECK(p(0.0f) == static_cast<float>(0.1 * 3.0));
  CHECK(calx::trace([](auto x) { return x * 0.1; }, 1.0f)(3.0f) == 3.0f * static_cast<float>(0.1));
}

TEST_CASE("values computed but not returned leave no node", "[program][dead]") {
  CHECK(dead_nodes_are_dropped());
  STATIC_REQUIRE(dead_nodes_are_dropped());
  CHECK(calx::trace(with_unused_value, 1.0, 2.0)(0.5, 7.0) == std::sin(0.5));
}

TEST_CASE("a program is the one a fresh build gives, kept from its first build or built again",
          "[program][materialized]") {
  using small = calx::detail::trace_source<decltype(both_orders), double, double>;
  using large = calx::detail::trace_source<decltype(chain_of_products), std::array<double, 300>>;
  STATIC_REQUIRE(calx::detail::materialized<small>::kept);
  STATIC_REQUIRE(!calx::detail::materialized<large>::kept);
  STATIC_REQUIRE(calx::detail::materialized<large>::sizes[0] > calx::detail::first_build_result::max_nodes);
  STATIC_REQUIRE(same_as_a_fresh_build<small>());
  STATIC_REQUIRE(same_as_a_fresh_build<large>());
  std::array<double, 300> x{};
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.01 * static_cast<double>(i % 17) - 0.05;
  CHECK(calx::trace(chain_of_products, x)(x) == Approx(chain_of_products(x)).epsilon(1e-14));
  CHECK(calx::trace(both_orders, 1.0, 2.0)(2.0, 3.0) == 25.0);
}

TEST_CASE("a function may return its inputs", "[program][outputs]") {
  CHECK(returning_an_input_adds_no_node());
  STATIC_REQUIRE(returning_an_input_adds_no_node());
  CHECK(calx::trace(second, 1.0, 2.0)(3.0, 4.0) == 4.0);
  CHECK(calx::trace(twice_x, 1.0, 2.0)(3.0, 4.0) == std::pair{3.0, 3.0});
  CHECK(calx::trace([](auto x) { return calx::where(true, x, 2.0); }, 1.0)(5.0) == 5.0);
}

TEST_CASE("every output is written into a result not zeroed first: listed twice, read again, an input, a loop's",
          "[program][outputs]") {
  using v4 = calx::tensor<double, 4>;
  v4 x;
  for (std::size_t k = 0; k < 4; ++k) x[k] = 0.5 + static_cast<double>(k);
  // The results are not zeroed before the program writes them (detail::returned_written):
  // y is an output and is read again (z); y is listed twice; x (an input) is an output; the
  // loop's carry is an output computed by a results kernel.
  const auto f = [](const auto& a) {
    const auto y = calx::sin(a) * 2.0;
    const auto z = y * y + calx::sum(y);
    const auto w = calx::fori_loop(0, 3, [](auto, const auto& c) { return c * 0.5 + 1.0; }, a);
    return std::tuple{y, z, y, a, w};
  };
  const auto p = calx::trace(f, x);
  const auto [y, z, y2, a, w] = p(x);
  const auto [ey, ez, ey2, ea, ew] = f(x);
  // To rounding, not bit for bit: a traced program may run sin on xsimd batches of elements
  // (calx's SIMD kernel, on tensors of eight SIMD batches or more), where f run eagerly
  // calls std::sin per element.
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(y[k] == Approx(ey[k]).epsilon(1e-15));
    CHECK(z[k] == Approx(ez[k]).epsilon(1e-15));
    CHECK(y2[k] == y[k]);
    CHECK(a[k] == x[k]);
    CHECK(w[k] == Approx(ew[k]).epsilon(1e-15));
  }
  // A gradient (its program has no value output) is every element of its result.
  const v4 g = calx::grad([](const auto& v) { return calx::sum(calx::sin(v) * v); })(x);
  for (std::size_t k = 0; k < 4; ++k) CHECK(g[k] == Approx(std::cos(x[k]) * x[k] + std::sin(x[k])).epsilon(1e-15));
}

TEST_CASE("a constant broadcast already folds as the constant: a sum's seed times the cotangent", "[program][folding]") {
  using m = calx::tensor<double, 3, 4>;
  // The vjp of sum spreads 1.0 over x's shape; the mul by it that the vjp of `* w` records
  // is the cotangent itself.
  const std::string text = calx::to_string(calx::trace(calx::grad([](const auto& x, const auto& w) { return calx::sum(x * w); }), m{}, m{}));
  INFO(text);
  CHECK(text.find("mul") == std::string::npos);
  CHECK(text.find("broadcast_in_dim") == std::string::npos);
}

TEST_CASE("several outputs: tuple, pair, array and nestings of them", "[program][outputs]") {
  const auto t = calx::trace([](auto x, auto y) { return std::tuple{x * y, x + y, calx::sin(x)}; }, 1.0, 1.0);
  STATIC_REQUIRE(std::is_same_v<decltype(t(2.0, 3.0)), std::tuple<double, double, double>>);
  CHECK(t(2.0, 3.0) == std::tuple{6.0, 5.0, std::sin(2.0)});

  const auto p = calx::trace([](auto x, auto y) { return std::pair{x - y, x / y}; }, 1.0, 1.0);
  STATIC_REQUIRE(std::is_same_v<decltype(p(2.0, 4.0)), std::pair<double, double>>);
  CHECK(p(2.0, 4.0) == std::pair{-2.0, 0.5});

  const auto a = calx::trace([](auto x, auto y) { return std::array{x, y, x * y}; }, 1.0, 1.0);
  STATIC_REQUIRE(std::is_same_v<decltype(a(2.0, 3.0)), std::array<double, 3>>);
  CHECK(a(2.0, 3.0) == std::array{2.0, 3.0, 6.0});

  const auto n = calx::trace(
      [](auto x, auto y) { return std::tuple{std::array{y, x}, std::pair{x * y, std::tuple{x}}}; }, 1.0, 1.0);
  using nested = std::tuple<std::array<double, 2>, std::pair<double, std::tuple<double>>>;
  STATIC_REQUIRE(std::is_same_v<decltype(n(2.0, 3.0)), nested>);
  CHECK(n(2.0, 3.0) == nested{{3.0, 2.0}, {6.0, std::tuple{2.0}}});
  STATIC_REQUIRE(decltype(n)::ir.output_count == 4);
}

TEST_CASE("structured arguments: arrays, tuples and nestings of them", "[program][arguments]") {
  const auto dot3 = calx::trace([](const auto& v) { return v[0] * v[1] + v[2]; }, std::array<double, 3>{});
  STATIC_REQUIRE(decltype(dot3)::ir.input_count == 3);
  CHECK(dot3(std::array{2.0, 3.0, 4.0}) == 10.0);

  const auto mixed = calx::trace(
      [](const auto& t) {
        const auto& [a, v] = t;
        return a * v[0] - v[1];
      },
      std::tuple<double, std::array<double, 2>>{});
  STATIC_REQUIRE(decltype(mixed)::ir.input_count == 3);
  CHECK(mixed(std::tuple{2.0, std::array{3.0, 4.0}}) == 2.0);

  const auto several = calx::trace([](auto s, const auto& p, const auto& v) { return s * p.first + p.second * v[1]; },
                                   0.0, std::pair<double, double>{}, std::array<double, 2>{});
  STATIC_REQUIRE(decltype(several)::ir.input_count == 5);
  CHECK(several(2.0, std::pair{3.0, 4.0}, std::array{5.0, 6.0}) == 30.0);
}

TEST_CASE("float programs compute and return float", "[program][float]") {
  const auto p = calx::trace([](auto x, auto y) { return std::pair{calx::exp(x) * y, x}; }, 1.0f, 1.0f);
  STATIC_REQUIRE(std::is_same_v<decltype(p)::value_type, float>);
  STATIC_REQUIRE(std::is_same_v<decltype(p(1.0f, 2.0f)), std::pair<float, float>>);
  CHECK(p(1.0f, 2.0f).first == std::exp(1.0f) * 2.0f);
  const auto q = calx::trace([](const auto& v) { return v[0] / v[1]; }, std::array<float, 2>{});
  STATIC_REQUIRE(std::is_same_v<decltype(q(std::array<float, 2>{})), float>);
  CHECK(q(std::array{1.0f, 3.0f}) == 1.0f / 3.0f);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::trace(square_30_times, 1.0))::value_type, double>);
}

namespace {
// Uses most ops, branches through where, and has no constant meeting a constant, so the
// program and the untransformed function perform the same double operations.
constexpr auto model = [](auto x, auto y) {
  auto s = calx::sigmoid(x * y - 1.0);
  auto r = calx::where(x < y, calx::log1p(x * x), calx::sqrt(calx::abs(y)));
  auto u = calx::atan2(s, r) + calx::pow(calx::abs(x) + 1.0, y) * calx::tanh(y);
  return std::pair{u - calx::min(x, y) / calx::max(1.0, calx::abs(x)),
                   calx::erf(x) * calx::cos(y) + calx::expm1(-calx::abs(y)) * calx::sign(x - y)};
};
}  // namespace

TEST_CASE("calls out of line run back to back; the values do not change", "[program][order]") {
  CHECK(calls_run_back_to_back());
  STATIC_REQUIRE(calls_run_back_to_back());
  const auto p = calx::trace(calls_apart, 1.0, 1.0);
  const auto loop = calx::trace(calls_in_a_loop, 1.0, 1.0);
  std::vector<double> xs, ys;
  for (double x : {-1.5, -0.25, 0.0, 0.5, 1.25})
    for (double y : {-0.75, 0.0, 0.3, 1.0}) {
      INFO("(" << x << ", " << y << ")");
      // The same operations; a few ulps for fma contraction, which may differ between the
      // program and the function compiled directly.
      CHECK(calx_test::within_ulps(p(x, y), calls_apart(x, y), 8));
      double c = x;
      for (int i = 0; i < 3; ++i) c = calls_apart(c, y) * 0.25;
      CHECK(calx_test::within_ulps(loop(x, y), c, 8));
      xs.push_back(x);
      ys.push_back(y);
    }
  // the same program on SIMD lanes and in a loop's step on SIMD lanes: xsimd's sin, cos
  // and tan differ from the scalar ones by an ulp or two, and the loop compounds them
  const auto batched = calx::vmap(calls_apart)(xs, ys);
  const auto batched_loop = calx::vmap(calls_in_a_loop)(xs, ys);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    CHECK(batched[i] == Approx(calls_apart(xs[i], ys[i])).epsilon(1e-13).margin(1e-13));
    CHECK(batched_loop[i] == Approx(loop(xs[i], ys[i])).epsilon(1e-12).margin(1e-12));
  }
}

TEST_CASE("a program gives the value of the same function run untransformed", "[program][untransformed]") {
  const auto p = calx::trace(model, 1.0, 1.0);
  for (double x : {-3.0, -1.0, -0.25, 0.0, 0.5, 2.0, 7.5})
    for (double y : {-2.0, -0.5, 0.0, 0.75, 1.0, 4.0}) {
      INFO("model(" << x << ", " << y << ")");
      const auto want = model(x, y);
      const auto got = p(x, y);
      CHECK(calx_test::same_value(got.first, want.first));
      CHECK(calx_test::same_value(got.second, want.second));
    }
}

TEST_CASE("programs called on tracers are inlined into the outer trace", "[program][composition]") {
  CHECK(programs_inline_into_traces());
  STATIC_REQUIRE(programs_inline_into_traces());
  CHECK(calx::trace(outer, 1.0)(0.5) == 2 * (std::sin(0.5) * 0.5) + 1.0);
}

// A function traced with a runtime batch (std::vector, std::span) as an argument, as grad
// takes one: the program runs the SIMD loop over the samples; a per-sample result is a
// column, a sum over the batch a number.
constexpr auto per_sample = [](auto x, auto w) { return calx::sin(x * w); };
constexpr auto batch_loss = [](auto w, auto xs) {
  return calx::mean(calx::vmap(per_sample, calx::in_axes<0, calx::none>)(xs, w));
};
constexpr auto scaled_batch = [](auto xs, auto w) { return std::pair{xs * w, calx::sum(xs) * w}; };

TEST_CASE("a program traced over runtime batches runs over them", "[program][batch]") {
  const std::vector<double> xs{0.5, 1.0, 2.0, -1.5, 0.25};
  const auto loss = calx::trace(batch_loss, 0.3, xs);
  double want = 0;
  for (double x : xs) want += std::sin(x * 0.3);
  want /= static_cast<double>(xs.size());
  CHECK_THAT(loss(0.3, xs), Catch::Matchers::WithinRel(want, 1e-14));
  CHECK_THAT(loss(0.3, std::span<const double>(xs).first(2)),
             Catch::Matchers::WithinRel((std::sin(0.15) + std::sin(0.3)) / 2, 1e-14));
  // A per-sample result is a column; a reduction a number. Float batches run float code.
  const std::vector<float> xf{1.0f, 2.0f, 3.0f};
  const auto [col, total] = calx::trace(scaled_batch, xf, 2.0f)(xf, 2.0f);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(col)>, calx::batched<float>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(total)>, float>);
  REQUIRE(col.size() == 3);
  CHECK(col[0] == 2.0f);
  CHECK(col[2] == 6.0f);
  CHECK(total == 12.0f);
  // One element of a tuple per sample, one not: each its own kind.
  constexpr auto three = [](auto xs, auto w) { return std::tuple{calx::sum(xs), xs + w, w * w}; };
  const auto [s, c, ww] = calx::trace(three, xf, 2.0f)(xf, 2.0f);
  CHECK(s == 6.0f);
  CHECK(c[1] == 4.0f);
  CHECK(ww == 4.0f);
  // The program's structure: a batch argument takes a batch, not a number.
  using P = decltype(loss);
  STATIC_REQUIRE(std::invocable<P, double, std::vector<double>>);
  STATIC_REQUIRE(!std::invocable<P, double, double>);
}

TEST_CASE("a program over two batches of different lengths throws, naming both", "[program][batch]") {
  constexpr auto dot = [](auto a, auto b) { return calx::sum(a * b); };
  const std::vector<double> a{1, 2, 3}, b{1, 2};
  const auto p = calx::trace(dot, a, a);
  CHECK(p(a, a) == 14.0);
  CHECK_THROWS_WITH(p(a, b), Catch::Matchers::Contains("calx::program") && Catch::Matchers::Contains("3 samples") &&
                                 Catch::Matchers::Contains("has 2"));
}

TEST_CASE("a program accepts only arguments of its traced structure", "[program][rejection]") {
  using unary = decltype(calx::trace([](auto x) { return x; }, 1.0));
  STATIC_REQUIRE(std::invocable<unary, double>);
  STATIC_REQUIRE(std::invocable<unary, float>);
  STATIC_REQUIRE(!std::invocable<unary>);
  STATIC_REQUIRE(!std::invocable<unary, double, double>);
  STATIC_REQUIRE(!std::invocable<unary, std::array<double, 1>>);

  using three = decltype(calx::trace([](const auto& v) { return v[0]; }, std::array<double, 3>{}));
  STATIC_REQUIRE(std::invocable<three, std::array<double, 3>>);
  STATIC_REQUIRE(!std::invocable<three, std::array<double, 2>>);
  STATIC_REQUIRE(!std::invocable<three, double, double, double>);
  STATIC_REQUIRE(!std::invocable<three, std::tuple<double, double, double>>);
}
