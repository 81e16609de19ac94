/// @file tests/_include/ir_inspect.hpp
/// @brief Compile-time questions about a program's IR, for tests: how many nodes of an op,
/// which constants it holds. Usable in constant expressions, so tests can check them both
/// with CHECK and with STATIC_REQUIRE.
#ifndef CALX_TESTS_IR_INSPECT_HPP
#define CALX_TESTS_IR_INSPECT_HPP

#include <calx/calx.hpp>

#include <cstddef>

namespace calx_test {

/// The number of nodes of op `Op` in `ir`.
template <class Op, class IR>
constexpr int count_op(const IR& ir) {
  int n = 0;
  for (const auto& node : ir.nodes) n += node.op == calx::detail::ref_of<Op>() ? 1 : 0;
  return n;
}

/// The number of nodes that are not inputs or constants: the operations that run.
template <class IR>
constexpr int count_operations(const IR& ir) {
  return static_cast<int>(IR::size) - count_op<calx::input_op>(ir) - count_op<calx::constant_op>(ir);
}

/// Whether `ir` holds a real constant equal to `v`.
template <class IR>
constexpr bool has_constant(const IR& ir, double v) {
  for (const auto& node : ir.nodes)
    if (node.is_constant() && node.value == v) return true;
  return false;
}

/// The op of the node that computes flat output `o` (compare with `op_of<Op>()`).
template <class IR>
constexpr auto output_op(const IR& ir, std::size_t o) {
  return ir.nodes[static_cast<std::size_t>(ir.outputs[o])].op;
}

/// The number of nodes whose op is named `name` (user ops, whose types a test may not see).
template <class IR>
constexpr int count_named(const IR& ir, const char* name) {
  int n = 0;
  for (const auto& node : ir.nodes) {
    const char* a = node.op().name;
    const char* b = name;
    while (*a != '\0' && *a == *b) ++a, ++b;
    n += *a == *b ? 1 : 0;
  }
  return n;
}

/// The op of an IR node of op type `Op`.
template <class Op>
constexpr calx::detail::op_ref op_of() {
  return calx::detail::ref_of<Op>();
}

}  // namespace calx_test

#endif // CALX_TESTS_IR_INSPECT_HPP
