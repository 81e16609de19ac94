// Every built-in op has the traits the passes and codegen need; checked over the list of
// built-in ops itself, so a new op is covered without editing this file.
#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>

namespace {

template <class F>
constexpr bool for_all_ops(F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (f(calx::detail::type_identity<calx::detail::builtin_at_t<I>>{}) && ...);
  }(std::make_index_sequence<calx::detail::builtin_ops::size>{});
}

struct not_an_op {};

}  // namespace

TEST_CASE("every built-in op is a primitive with a name and its own builtin code", "[op_traits]") {
  STATIC_REQUIRE(for_all_ops([]<class Op>(calx::detail::type_identity<Op>) {
    return calx::primitive<Op> && calx::detail::ref_of<Op>()().builtin == calx::detail::builtin_code_v<Op> &&
           std::string_view(calx::op_traits<Op>::name).size() > 0 &&
           std::string_view(calx::detail::ref_of<Op>()().name) == calx::op_traits<Op>::name;
  }));
  STATIC_REQUIRE(!calx::primitive<not_an_op>);
}

TEST_CASE("every real-valued op has a jvp and a vjp rule; masks have neither", "[op_traits][rules]") {
  STATIC_REQUIRE(for_all_ops([]<class Op>(calx::detail::type_identity<Op>) {
    if constexpr (calx::detail::is_tensor_builtin_v<Op>)
      // Tensor ops: rules on node ids (`jvp_ids`, `vjp_ids`), which read their attributes.
      return calx::detail::describe<Op>().jvp_from == calx::detail::rule_source::own &&
             calx::detail::describe<Op>().vjp_from == calx::detail::rule_source::own;
    else if constexpr (calx::op_traits<Op>::arity == 0 || std::is_same_v<Op, calx::get_op>)
      return !calx::has_jvp_rule<Op>;  // structural: inputs, constants, results of tuple ops
    else if constexpr (calx::detail::result_v<Op> == calx::detail::value_kind::boolean)
      return !calx::has_jvp_rule<Op> && !calx::has_vjp_rule<Op>;
    else
      return calx::has_jvp_rule<Op> && calx::has_vjp_rule<Op> &&
             calx::detail::describe<Op>().jvp_from == calx::detail::rule_source::own &&
             calx::detail::describe<Op>().vjp_from == calx::detail::rule_source::own;
  }));
  STATIC_REQUIRE(!calx::has_jvp_rule<not_an_op>);
  STATIC_REQUIRE(!calx::has_vjp_rule<not_an_op>);
}

TEST_CASE("op names are unique", "[op_traits]") {
  constexpr auto n = calx::detail::builtin_ops::size;
  const char* names[n];
  std::size_t k = 0;
  for_all_ops([&]<class Op>(calx::detail::type_identity<Op>) {
    names[k++] = calx::op_traits<Op>::name;
    return true;
  });
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) CHECK(std::strcmp(names[i], names[j]) != 0);
}

TEST_CASE("kernels evaluate on float and double", "[op_traits][kernel]") {
  CHECK(calx::op_traits<calx::mul_op>::kernel(3.0, 4.0) == 12.0);
  CHECK(calx::op_traits<calx::mul_op>::kernel(3.0f, 4.0f) == 12.0f);
  CHECK(calx::op_traits<calx::where_op>::kernel(true, 1.0, 2.0) == 1.0);
  CHECK(calx::op_traits<calx::sign_op>::kernel(-2.0) == -1.0);
}
