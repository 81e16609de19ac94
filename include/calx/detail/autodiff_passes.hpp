/// @file detail/autodiff_passes.hpp
/// @brief The differentiation passes, IR -> IR inside constant evaluation.
/// - `jvp_graph`: inputs (primals, tangents of the masked inputs) -> (outputs, output tangents).
/// - `vjp_graph`: inputs (primals[, output cotangents]) -> (outputs, cotangents of the masked
///   inputs); without cotangent inputs every output is seeded with 1 (gradients).
/// Tangents and cotangents known to be zero are symbolic (no node); rules are only called
/// where something nonzero flows, and dead nodes are dropped by `finalize`.
#ifndef CALX_DETAIL_AUTODIFF_PASSES_HPP
#define CALX_DETAIL_AUTODIFF_PASSES_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/graph.hpp>
#include <calx/detail/replay.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class IR, class Mask>
constexpr graph jvp_graph(const IR& r, const Mask& wrt) {
  graph g;
  std::vector<int> pin(IR::input_count), tin(IR::input_count, -1);
  for (std::size_t i = 0; i < IR::input_count; ++i) pin[i] = g.input();
  for (std::size_t i = 0; i < IR::input_count; ++i)
    if (wrt[i]) tin[i] = g.input();
  std::vector<int> p(IR::size, -1), t(IR::size, -1);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.op == input_opcode) {
      const auto pos = static_cast<std::size_t>(n.value);
      p[j] = pin[pos];
      t[j] = tin[pos];
      continue;
    }
    p[j] = replay_node(g, r.nodes, static_cast<int>(j), p);
    if (n.op == constant_opcode || n.kind == value_kind::boolean) continue;
    bool any = false;
    for (int a : n.in)
      if (a >= 0 && t[a] >= 0) any = true;
    if (!any) continue;
    visit_op(n.op, [&]<class Op>(type_identity<Op>) {
      if constexpr (op_traits<Op>::arity > 0 && op_traits<Op>::result == value_kind::real) {
        t[j] = [&]<int... I>(std::integer_sequence<int, I...>) {
          return op_traits<Op>::jvp(tracer{&g, p[j]}, operand<Op, I>(g, p[n.in[I]])...,
                                    tracer{t[n.in[I]] < 0 ? nullptr : &g, t[n.in[I]]}...)
              .id;
        }(std::make_integer_sequence<int, op_traits<Op>::arity>{});
      }
    });
  }
  for (int o : r.outputs) g.outputs.push_back(p[o]);
  for (int o : r.outputs) g.outputs.push_back(t[o]);
  return g;
}

template <class IR, class Mask>
constexpr graph vjp_graph(const IR& r, const Mask& wrt, bool cotangent_inputs) {
  graph g;
  std::vector<int> pin(IR::input_count);
  for (std::size_t i = 0; i < IR::input_count; ++i) pin[i] = g.input();
  // Which nodes depend on a differentiated input: only they receive cotangents.
  std::vector<char> active(IR::size, 0);
  std::vector<int> p(IR::size, -1);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.op == input_opcode) {
      p[j] = pin[static_cast<std::size_t>(n.value)];
      active[j] = wrt[static_cast<std::size_t>(n.value)] ? 1 : 0;
      continue;
    }
    p[j] = replay_node(g, r.nodes, static_cast<int>(j), p);
    if (n.kind == value_kind::real)
      for (int a : n.in)
        if (a >= 0 && active[a]) active[j] = 1;
  }
  std::vector<int> ct(IR::size, -1);
  for (std::size_t o = 0; o < IR::output_count; ++o) {
    const int seed = cotangent_inputs ? g.input() : g.constant(1.0);
    const int at = r.outputs[o];
    if (active[at]) ct[at] = (tracer{&g, ct[at]} + tracer{&g, seed}).id;
  }
  for (std::size_t jj = IR::size; jj-- > 0;) {
    const node& n = r.nodes[jj];
    if (ct[jj] < 0 || n.op == input_opcode || n.kind == value_kind::boolean) continue;
    visit_op(n.op, [&]<class Op>(type_identity<Op>) {
      if constexpr (op_traits<Op>::arity > 0 && op_traits<Op>::result == value_kind::real) {
        const auto cts = [&]<int... I>(std::integer_sequence<int, I...>) {
          return op_traits<Op>::vjp(tracer{&g, ct[jj]}, tracer{&g, p[jj]}, operand<Op, I>(g, p[n.in[I]])...);
        }(std::make_integer_sequence<int, op_traits<Op>::arity>{});
        for (int i = 0; i < op_traits<Op>::arity; ++i) {
          const int a = n.in[i];
          if (!active[a] || cts[i].is_zero()) continue;
          ct[a] = ct[a] < 0 ? cts[i].id : (tracer{&g, ct[a]} + cts[i]).id;
        }
      }
    });
  }
  for (int o : r.outputs) g.outputs.push_back(p[o]);
  for (std::size_t i = 0; i < IR::input_count; ++i)
    if (wrt[i]) g.outputs.push_back(ct[r.inputs[i]]);
  return g;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_AUTODIFF_PASSES_HPP
