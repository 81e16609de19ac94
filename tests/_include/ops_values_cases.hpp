/// @file tests/_include/ops_values_cases.hpp
/// @brief The cases of tests/ops.values.*.cpp, one precision per translation unit for the
/// compile budget (each TU defines CALX_TEST_PART, 0 or 1, and CALX_TEST_REALS, float or
/// double, and includes this; part 0 also has the cases that are not per precision).
/// Every primitive's value against <cmath>, for float and double, three ways:
/// untransformed (`calx::sin(x)` on a plain number), through a traced program called
/// with scalars, and through the same program called with `xsimd::batch<T>` (one sample
/// per lane). Driven by the table in `_include/primitives.hpp`: each row becomes one test
/// case per precision, tagged with the op's name (run one with `ops.values.0 "[sin]"`, float,
/// or `ops.values.1 "[sin]"`, double).
///
/// Tolerances. The scalar paths call the very <cmath> function the reference calls, in
/// the same precision and order, so they must match exactly (NaN as NaN, infinities and
/// signed zeros included). SIMD lanes run xsimd's own kernels, so they are compared within
/// each row's `simd` bound in ulps; `_include/primitives.hpp` states each bound and why.
/// Infinite and NaN references must still be matched exactly on every lane; the sign of a
/// zero is compared on the scalar paths only.
///
/// Constant folding: the IR folds constants in double, so a program that combines two
/// constants may round differently from float arithmetic. No program here does: every
/// operand is an input, and the comparisons' 1.0 and 0.0 are exact in float.

#ifndef CALX_TESTS_OPS_VALUES_CASES_HPP
#define CALX_TESTS_OPS_VALUES_CASES_HPP

#include <_include/float_compare.hpp>
#include <_include/primitives.hpp>

#include <calx/calx.hpp>
#include <calx/simd/batch.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <deque>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using namespace calx_test;

template <class T, std::size_t K>
std::string call_text(const char* name, const std::array<T, K>& a) {
  std::string s = std::string(name) + "(";
  for (std::size_t i = 0; i < K; ++i) s += (i ? ", " : "") + text(a[i]);
  return s + ")";
}

/// Checks `eval(args)` against the reference exactly, for every input of the row.
template <class T, class Row, class Eval>
void check_exact(const Row& row, Eval eval) {
  for (const auto& args : all_inputs<T>(row)) {
    const T want = reference<T>(row, args);
    const T got = static_cast<T>(eval(args));
    INFO(call_text(row.name, args) << " = " << text(got) << ", <cmath> gives " << text(want));
    CHECK(same_value(got, want, row.signed_zero));
  }
}

/// Runs the row's program on `inputs` packed into xsimd batches, consecutive inputs in
/// consecutive lanes (so the lanes of one call hold different values), and checks every
/// lane against the scalar reference within the row's tolerance.
template <class T, class Row>
void check_lanes(const Row& row, const std::vector<std::array<T, Row::arity>>& inputs) {
  using batch = xsimd::batch<T>;
  constexpr std::size_t lanes = batch::size;
  const auto p = trace_row<T>(row);
  for (std::size_t start = 0; start < inputs.size(); start += lanes) {
    std::array<std::array<T, lanes>, Row::arity> columns{};
    for (std::size_t l = 0; l < lanes; ++l)
      for (std::size_t j = 0; j < Row::arity; ++j) columns[j][l] = inputs[(start + l) % inputs.size()][j];
    const batch result = [&]<std::size_t... J>(std::index_sequence<J...>) {
      return p(batch::load_unaligned(columns[J].data())...);
    }(std::make_index_sequence<Row::arity>{});
    std::array<T, lanes> out{};
    result.store_unaligned(out.data());
    for (std::size_t l = 0; l < lanes && start + l < inputs.size(); ++l) {
      const auto& args = inputs[start + l];
      const T want = reference<T>(row, args);
      const std::uint64_t tolerance = allowed_ulps(row, args);
      INFO("lane " << l << " of " << lanes << ": " << call_text(row.name, args) << " = " << text(out[l])
                   << ", <cmath> gives " << text(want) << " (" << ulp_distance(out[l], want) << " ulp apart, "
                   << tolerance << " allowed)");
      CHECK(within_ulps(out[l], want, tolerance));
    }
  }
}

/// The test case of row `I` in precision `T`.
template <std::size_t I, class T>
void primitive_values() {
  const auto& row = std::get<I>(primitives);
  constexpr std::size_t arity = std::tuple_element_t<I, std::remove_cvref_t<decltype(primitives)>>::arity;
  SECTION("untransformed, on plain numbers") {
    check_exact<T>(row, [&](const auto& args) { return std::apply(row.fn, args); });
  }
  SECTION("traced program, scalar arguments") {
    const auto p = trace_row<T>(row);
    STATIC_REQUIRE(std::is_same_v<decltype(std::apply(p, std::array<T, arity>{})), T>);  // float in, float out
    check_exact<T>(row, [&](const auto& args) { return std::apply(p, args); });
  }
  SECTION("traced program, xsimd batch arguments, over the domain") {
    check_lanes<T>(row, sweep_inputs<T>(row, 257));
  }
  SECTION("traced program, xsimd batch arguments, edge inputs") {
    check_lanes<T>(row, edge_inputs<T, arity>());
  }
}

/// One Catch test case per row in precision `T`, named and tagged after the op.
template <class T, std::size_t... I>
bool register_primitive_tests(std::index_sequence<I...>) {
  static std::deque<std::string> strings;  // Catch keeps references to the names
  const char* precision = std::is_same_v<T, float> ? "float" : "double";
  (
      [&] {
        const char* op = std::get<I>(primitives).name;
        strings.push_back(std::string("values of ") + op + " match <cmath>, " + precision);
        const std::string& name = strings.back();
        strings.push_back(std::string("[ops][values][") + op + "][" + precision + "]");
        const std::string& tags = strings.back();
        void (*const test)() = &primitive_values<I, T>;
        REGISTER_TEST_CASE(test, name, tags);
      }(),
      ...);
  return true;
}

const bool registered = register_primitive_tests<CALX_TEST_REALS>(std::make_index_sequence<primitive_count>{});

/// Runs `check(row)` on the row called `name`.
template <class F>
void with_row(const char* name, F check) {
  bool found = false;
  for_each_primitive([&](const auto& row) {
    if (std::string(row.name) == name) {
      found = true;
      check(row);
    }
  });
  INFO("no row named " << name);
  REQUIRE(found);
}

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double pi = 3.14159265358979323846;

/// Edge values spelled out, so the table's references are checked too.
struct spelled_edge {
  const char* op;
  std::array<double, 3> args;
  double value;
};
const spelled_edge spelled_edges[] = {
    {"log", {0}, -inf},           {"log", {-0.0}, -inf},        {"log", {-1}, nan},
    {"log", {inf}, inf},          {"log1p", {-1}, -inf},        {"log1p", {-2}, nan},
    {"sqrt", {-1}, nan},          {"sqrt", {-0.0}, -0.0},       {"sqrt", {inf}, inf},
    {"rsqrt", {0}, inf},          {"rsqrt", {inf}, 0},          {"rsqrt", {-1}, nan},
    {"exp", {inf}, inf},          {"exp", {-inf}, 0},           {"exp", {0}, 1},
    {"expm1", {-inf}, -1},        {"expm1", {-0.0}, -0.0},      {"tanh", {inf}, 1},
    {"tanh", {-inf}, -1},         {"tanh", {-0.0}, -0.0},       {"erf", {inf}, 1},
    {"erf", {-inf}, -1},          {"erfc", {-inf}, 2},          {"erfc", {inf}, 0},
    {"sigmoid", {inf}, 1},        {"sigmoid", {-inf}, 0},       {"sigmoid", {0}, 0.5},
    {"sin", {-0.0}, -0.0},        {"sin", {inf}, nan},          {"cos", {inf}, nan},
    {"abs", {-0.0}, 0},           {"abs", {-inf}, inf},         {"neg", {0}, -0.0},
    {"sign", {-3}, -1},           {"sign", {1e-30}, 1},        {"sign", {nan}, nan},
    {"sign", {-inf}, -1},         {"div", {1, 0}, inf},         {"div", {1, -0.0}, -inf},
    {"div", {0, 0}, nan},         {"pow", {0, 0}, 1},           {"pow", {nan, 0}, 1},
    {"pow", {1, nan}, 1},         {"pow", {-8, 1.0 / 3}, nan},  {"pow", {-2, 3}, -8},
    {"pow", {0, -1}, inf},        {"pow", {-0.0, -1}, -inf},    {"atan2", {0, 0}, 0},
    {"atan2", {-0.0, 0}, -0.0},   {"atan2", {0, -0.0}, pi},     {"atan2", {-0.0, -0.0}, -pi},
    {"atan2", {1, 0}, pi / 2},    {"atan2", {inf, inf}, pi / 4}, {"min", {nan, 1}, nan},
    {"min", {1, nan}, nan},       {"max", {nan, 1}, nan},       {"max", {1, nan}, nan},
    {"max", {-inf, 2}, 2},        {"min", {-inf, 2}, -inf},     {"lt", {1, nan}, 0},
    {"ne", {nan, nan}, 1},        {"eq", {-0.0, 0}, 1},         {"ge", {inf, inf}, 1},
    {"where", {1, 2, nan}, 2},    {"where", {nan, nan, 3}, 3},  {"where", {-0.0, inf, -inf}, -inf},
    {"stop_gradient", {nan}, nan}, {"stop_gradient", {-0.0}, -0.0},
};

}  // namespace

TEMPLATE_TEST_CASE("edge values named in the spec, on every path", "[ops][values][edges]", CALX_TEST_REALS) {
  using T = TestType;
  using batch = xsimd::batch<T>;
  for (const spelled_edge& e : spelled_edges) {
    with_row(e.op, [&](const auto& row) {
      constexpr std::size_t K = std::remove_cvref_t<decltype(row)>::arity;
      std::array<T, K> args{};
      for (std::size_t i = 0; i < K; ++i) args[i] = static_cast<T>(e.args[i]);
      const T want = static_cast<T>(e.value);
      const auto p = trace_row<T>(row);
      const T direct = static_cast<T>(std::apply(row.fn, args));
      const T traced = std::apply(p, args);
      std::array<T, batch::size> lanes{};
      [&]<std::size_t... J>(std::index_sequence<J...>) {
        p(batch(args[J])...).store_unaligned(lanes.data());
      }(std::make_index_sequence<K>{});
      INFO(call_text(e.op, args) << " should be " << text(want));
      INFO("untransformed " << text(direct) << ", program " << text(traced) << ", SIMD lane 0 " << text(lanes[0]));
      CHECK(same_value(reference<T>(row, args), want, row.signed_zero));
      CHECK(same_value(direct, want, row.signed_zero));
      CHECK(same_value(traced, want, row.signed_zero));
      bool every_lane = true;
      for (T lane : lanes) every_lane = every_lane && within_ulps(lane, want, allowed_ulps(row, args));
      CHECK(every_lane);
    });
  }
}

#if CALX_TEST_PART == 0
TEST_CASE("untransformed calls keep the argument's precision", "[ops][values]") {
  STATIC_REQUIRE(std::is_same_v<decltype(calx::sin(1.0f)), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::sin(1.0)), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::atan2(1.0f, 2.0f)), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::pow(2.0f, 3)), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::pow(2.0f, 3.0)), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::exp(1)), double>);  // integers compute in double
  STATIC_REQUIRE(std::is_same_v<decltype(calx::where(true, 1.0f, 2.0f)), float>);
  CHECK(calx::exp(1) == std::exp(1.0));
  CHECK(calx::pow(2.0f, 3) == 8.0f);
  CHECK(calx::where(false, 1.0f, 2.0f) == 2.0f);
}

TEST_CASE("a program evaluates each lane of a batch independently", "[ops][values][simd]") {
  using batch = xsimd::batch<double>;
  constexpr auto f = [](auto x, auto y) { return calx::where(x < y, calx::log(x), calx::sqrt(y)) * calx::sin(x); };
  const auto p = calx::trace(f, 0.0, 0.0);
  std::array<double, batch::size> xs{}, ys{}, out{};
  for (std::size_t l = 0; l < batch::size; ++l) {
    xs[l] = l % 2 ? -1.0 - static_cast<double>(l) : 0.5 + static_cast<double>(l);  // the branches alternate
    ys[l] = 3.0 - static_cast<double>(l);
  }
  p(batch::load_unaligned(xs.data()), batch::load_unaligned(ys.data())).store_unaligned(out.data());
  for (std::size_t l = 0; l < batch::size; ++l) {
    INFO("lane " << l << ": f(" << xs[l] << ", " << ys[l] << ")");
    // sqrt and where are exact and log and sin are within 2 ulp (see primitives.hpp), so the
    // product is within about 4 ulp of the scalar program.
    CHECK(within_ulps(out[l], p(xs[l], ys[l]), 4));
  }
}
#endif

#endif  // CALX_TESTS_OPS_VALUES_CASES_HPP
