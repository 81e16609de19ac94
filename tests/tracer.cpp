/// @file tests/tracer.cpp
/// @brief `calx::tracer` and `calx::bool_tracer`: what they are (small, trivially copyable
/// handles) and what may be done with them. Mostly rejection tests: misuse must be a clean,
/// requires-friendly failure, so generic code can test for it.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <concepts>
#include <string>
#include <type_traits>

namespace {

using calx::bool_tracer;
using calx::tracer;

template <class A, class B>
concept addable = requires(const A& a, const B& b) { a + b; };
template <class A, class B>
concept comparable = requires(const A& a, const B& b) { a < b; };
template <class A>
concept negatable = requires(const A& a) { -a; };
template <class A, class B>
concept add_assignable = requires(A& a, const B& b) { a += b; };

constexpr bool default_tracer_is_a_symbolic_zero() {
  tracer t{};
  return t.is_zero() && t.graph == nullptr && t.id == -1;
}

}  // namespace

TEST_CASE("a tracer is a small, trivially copyable handle", "[tracer]") {
  STATIC_REQUIRE(std::is_trivially_copyable_v<tracer>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<bool_tracer>);
  STATIC_REQUIRE(std::is_trivially_destructible_v<tracer>);
  STATIC_REQUIRE(sizeof(tracer) <= 2 * sizeof(void*));
  STATIC_REQUIRE(sizeof(bool_tracer) <= 2 * sizeof(void*));
  CHECK(default_tracer_is_a_symbolic_zero());
  STATIC_REQUIRE(default_tracer_is_a_symbolic_zero());
}

TEST_CASE("what counts as traced, as a number, as an operand", "[tracer][concepts]") {
  STATIC_REQUIRE(calx::traced<tracer>);
  STATIC_REQUIRE(calx::traced<const tracer&>);
  STATIC_REQUIRE(calx::traced<bool_tracer>);
  STATIC_REQUIRE(!calx::traced<double>);
  STATIC_REQUIRE(calx::number<double>);
  STATIC_REQUIRE(calx::number<float>);
  STATIC_REQUIRE(calx::number<int>);
  STATIC_REQUIRE(!calx::number<bool>);  // a bool is a condition, never a value
  STATIC_REQUIRE(!calx::number<tracer>);
  STATIC_REQUIRE(calx::trace_operand<tracer>);
  STATIC_REQUIRE(calx::trace_operand<double>);
  STATIC_REQUIRE(!calx::trace_operand<bool>);
  STATIC_REQUIRE(!calx::trace_operand<std::string>);
}

TEST_CASE("a mask does not become a bool", "[tracer][rejection]") {
  // Tracing records one program for all inputs: branches on traced values must be written
  // with calx::where. (Explicit conversion exists only to fail with that message.)
  STATIC_REQUIRE(!std::is_convertible_v<bool_tracer, bool>);
  STATIC_REQUIRE(!std::is_convertible_v<tracer, bool>);
  // tracer -> double is declared only to fail with calx's message (std::sin(x) picks it:
  // tests/fail/trace_std_math.cpp); no other conversion to a number exists.
  STATIC_REQUIRE(!std::is_convertible_v<tracer, float>);
  STATIC_REQUIRE(!std::is_convertible_v<tracer, int>);
  STATIC_REQUIRE(!std::is_convertible_v<double, tracer>);
}

TEST_CASE("real ops refuse masks, bools and wrong arities", "[tracer][rejection]") {
  // The ok twins first: the same functions accept tracers and numbers.
  STATIC_REQUIRE(std::invocable<decltype(calx::sin), tracer>);
  STATIC_REQUIRE(std::invocable<decltype(calx::sin), double>);
  STATIC_REQUIRE(std::invocable<decltype(calx::atan2), tracer, double>);
  STATIC_REQUIRE(std::invocable<decltype(calx::atan2), float, tracer>);

  // A mask where an op takes a number is a call that compiles to exactly one message
  // naming the op (tests/fail/mask_op_operand.cpp), not a missing overload, which would add
  // calx's "cannot be called" to the compiler's own: so these are invocable.
  STATIC_REQUIRE(std::invocable<decltype(calx::sin), bool_tracer>);
  STATIC_REQUIRE(std::invocable<decltype(calx::max), tracer, bool_tracer>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::sin), bool>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::sin), std::string>);

  STATIC_REQUIRE(!std::invocable<decltype(calx::atan2), tracer>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::atan2), double>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::atan2), tracer, tracer, tracer>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::sin), tracer, tracer>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::sin)>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::pow), tracer>);
}

TEST_CASE("where takes a mask, a bool or an integer as its condition", "[tracer][where][rejection]") {
  STATIC_REQUIRE(std::invocable<calx::where_fn, bool_tracer, tracer, tracer>);
  STATIC_REQUIRE(std::invocable<calx::where_fn, bool_tracer, double, tracer>);
  STATIC_REQUIRE(std::invocable<calx::where_fn, bool_tracer, double, double>);
  STATIC_REQUIRE(std::invocable<calx::where_fn, bool, tracer, double>);
  STATIC_REQUIRE(std::invocable<calx::where_fn, bool, double, double>);

  STATIC_REQUIRE(!std::invocable<calx::where_fn, tracer, tracer, tracer>);
  STATIC_REQUIRE(!std::invocable<calx::where_fn, double, tracer, tracer>);
  // A plain integer predicate (a & b on plain bools is an int), as a bool.
  STATIC_REQUIRE(std::invocable<calx::where_fn, int, double, double>);
  CHECK(calx::where(true & false, 1.0, 2.0) == 2.0);
  CHECK(calx::where(true & true, 1.0, 2.0) == 1.0);
  STATIC_REQUIRE(!std::invocable<calx::where_fn, bool_tracer, tracer, bool>);
  STATIC_REQUIRE(!std::invocable<calx::where_fn, bool_tracer, tracer>);
  // A mask is not a value either. Checked at run time, not with STATIC_REQUIRE, while
  // calx accepts it (the failure then surfaces inside codegen: where_op::kernel has no
  // overload for (bool, bool, double)), so that the rest of this file still builds.
  CHECK(!std::invocable<calx::where_fn, bool_tracer, bool_tracer, tracer>);
  CHECK(!std::invocable<calx::where_fn, bool_tracer, tracer, bool_tracer>);
}

TEST_CASE("operators take tracers and numbers, not bools; a mask is one message", "[tracer][rejection]") {
  STATIC_REQUIRE(addable<tracer, tracer>);
  STATIC_REQUIRE(addable<tracer, double>);
  STATIC_REQUIRE(addable<int, tracer>);
  STATIC_REQUIRE(comparable<tracer, float>);
  STATIC_REQUIRE(negatable<tracer>);
  STATIC_REQUIRE(add_assignable<tracer, double>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<tracer>() * 2.0), tracer>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<tracer>() <= 2.0), bool_tracer>);

  // Arithmetic on a mask is a call that compiles to exactly one message (the mask used as
  // a number: tests/fail/mask_arithmetic.cpp), so it is well-formed to a requires-expression.
  STATIC_REQUIRE(addable<tracer, bool_tracer>);
  STATIC_REQUIRE(add_assignable<tracer, bool_tracer>);  // the same one message (fail/mask_compound_assignment)
  STATIC_REQUIRE(addable<bool_tracer, double>);
  STATIC_REQUIRE(negatable<bool_tracer>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<bool_tracer>() * std::declval<bool_tracer>()), bool_tracer>);
  STATIC_REQUIRE(!addable<tracer, bool>);
  STATIC_REQUIRE(!addable<tracer, std::string>);
  STATIC_REQUIRE(!comparable<bool_tracer, bool_tracer>);
  STATIC_REQUIRE(!comparable<tracer, bool_tracer>);
  STATIC_REQUIRE(!add_assignable<const tracer, double>);
}
