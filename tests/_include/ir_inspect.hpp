/// @file tests/_include/ir_inspect.hpp
/// @brief Compile-time questions about a program's IR, for tests: how many nodes of an op,
/// which constants it holds. Usable in constant expressions, so tests can check them both
/// with CHECK and with STATIC_REQUIRE.
#ifndef CALX_TESTS_IR_INSPECT_HPP
#define CALX_TESTS_IR_INSPECT_HPP

#include <calx/calx.hpp>

#include <bit>
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

/// Whether programs `a` and `b` (an `ir` or a `graph`) hold the same nodes, every field alike
/// (a constant bit for bit), and the same operand, input and output lists.
template <class A, class B>
constexpr bool same_nodes_and_lists(const A& a, const B& b) {
  if (a.nodes.size() != b.nodes.size() || a.operands.size() != b.operands.size() ||
      a.inputs.size() != b.inputs.size() || a.outputs.size() != b.outputs.size())
    return false;
  for (std::size_t j = 0; j < a.nodes.size(); ++j) {
    const calx::detail::node &x = a.nodes[j], &y = b.nodes[j];
    if (x.op != y.op || std::bit_cast<unsigned long long>(x.value) != std::bit_cast<unsigned long long>(y.value) ||
        x.first != y.first || x.arity != y.arity || x.slot != y.slot || x.kind != y.kind || x.batched != y.batched ||
        x.dims.rank != y.dims.rank || x.attr != y.attr)
      return false;
    for (int d = 0; d < calx::detail::max_rank; ++d)
      if (x.dims.extent[d] != y.dims.extent[d]) return false;
  }
  for (std::size_t k = 0; k < a.operands.size(); ++k)
    if (a.operands[k] != b.operands[k]) return false;
  for (std::size_t k = 0; k < a.inputs.size(); ++k)
    if (a.inputs[k] != b.inputs[k]) return false;
  for (std::size_t k = 0; k < a.outputs.size(); ++k)
    if (a.outputs[k] != b.outputs[k]) return false;
  return true;
}

/// The op of an IR node of op type `Op`.
template <class Op>
constexpr calx::detail::op_ref op_of() {
  return calx::detail::ref_of<Op>();
}

}  // namespace calx_test

#endif // CALX_TESTS_IR_INSPECT_HPP
