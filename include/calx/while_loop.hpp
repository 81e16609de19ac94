/// @file while_loop.hpp
/// @brief `calx::while_loop(cond_fn, body_fn, init)`: JAX's `lax.while_loop`. On traced
/// values it is one IR node whose condition and body are sub-programs, run as a real loop.
/// Under vmap each SIMD lane leaves the loop when its own condition fails (the group runs
/// until every lane is done; a finished lane keeps its carry). Forward mode is a while
/// loop of (carry, tangent) under the body's jvp; reverse mode counts the steps, then runs
/// fori_loop's reverse loop over that many, which keeps every step's carries on the heap
/// (JAX refuses it: the number of steps to store is not known before the loop runs).
#ifndef CALX_WHILE_LOOP_HPP
#define CALX_WHILE_LOOP_HPP

#include <calx/config.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/passes/ir_text.hpp>
#include <calx/fori_loop.hpp>
#include <calx/math.hpp>
#include <calx/tensor_type.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE

namespace detail {

/// The user's `body(carry)` as a loop step (its index unused).
template <class Body, class C>
struct while_body_step {
  template <std::size_t N>
  constexpr std::array<tracer, N> operator()(const tracer& i, const std::array<tracer, N>& c) const {
    return user_step<drop_index<Body>, C>{}(i, c);
  }
  template <class F>
  struct drop_index {
    template <class I, class X>
    constexpr auto operator()(const I&, const X& x) const {
      return make_stateless<F>()(x);
    }
  };
};

/// The user's `cond_fn(carry)` on flat carries, as a real: 1 while the loop goes on.
template <class Cond, class C>
struct user_condition {
  template <std::size_t N>
  constexpr tracer operator()(const std::array<tracer, N>& c) const {
    const auto go = make_stateless<Cond>()(unflatten<C>(c));
    using G = std::remove_cvref_t<decltype(go)>;
    if constexpr (std::is_same_v<G, bool>)
      return in_graph(*c[0].graph, c[0].graph->constant(go ? 1.0 : 0.0));
    else if constexpr (traced_whole<G>)  // a rank-0 tensor of bool (a comparison of reductions)
      return tree_node<tensor<double>>::traced(calx::where(go, 1.0, 0.0));
    else
      return calx::where(go, 1.0, 0.0);
  }
};

/// A loop's condition as a program: `Cond{}(c)` on the carries (one input per value, of
/// the shapes `Dims::value`), one output.
template <class Cond, class Dims>
struct condition_source {
  static constexpr graph build() {
    graph g;
    std::array<tracer, Dims::size> c{};
    for (std::size_t k = 0; k < Dims::size; ++k) c[k] = tracer{&g, g.input(value_kind::real, false, Dims::value[k])};
    g.output(Cond{}(c).id);
    return g;
  }
};

/// Condition program `CS` on the first `N` of `2 N` carries (the primal half of a jvp
/// loop's carry; the tangents are inputs it does not read).
template <class CS, std::size_t N>
struct primal_condition_source {
  static constexpr graph build() {
    const auto& r = materialized<CS>::value;
    graph g;
    const std::vector<int> pin = inputs_like(g, r);
    for (std::size_t k = 0; k < N; ++k) g.input_like(r.nodes[r.inputs[k]]);
    const std::vector<int> p = replay_all(r, g, pin);
    g.outputs_from(r, r.outputs, p);
    return g;
  }
};

/// The while op of condition program `CS` and step program `S`: operands the `N`
/// carries, results the final carries.
template <class CS, class S, std::size_t N>
struct while_op {};

/// The number of steps the while op of `CS` and `S` takes from its `N` carries (operands):
/// one result, a whole number (per sample under vmap), the bound of its reverse loop.
template <class CS, class S, std::size_t N>
struct while_steps_op {};

/// The while op's rules, up to the limit of `step_order_v`.
template <class CS, class S, std::size_t N, bool = (step_order_v<S> < loop_derivative_order_limit)>
struct while_rules : loop_order_limit_rules<N, N> {};
template <class CS, class S, std::size_t N>
struct while_rules<CS, S, N, true> {
  /// Tangents of the final carries: the same loop over (carry, tangent), its condition on
  /// the carry.
  static constexpr void jvp_ids(graph& g, const int*, const int* x, const int* t, int* out) {
    bool any = false;
    for (std::size_t k = 0; k < N; ++k) any = any || t[k] >= 0;
    if (!any) {
      for (std::size_t k = 0; k < N; ++k) out[k] = -1;
      return;
    }
    // Operands (c, dc), results (c, dc): a symbolic zero tangent becomes zeros of its
    // carry's shape (a scalar 0 for a tensor carry would shift every later carry's elements).
    operand_list in(static_cast<int>(2 * N));
    id_buffer res(static_cast<int>(2 * N));
    add_pairs(in, g, x, t, N);
    record_loop<while_op<primal_condition_source<CS, N>, jvp_step_source<S, N, 0, 0>, 2 * N>>(g, in.ids.data(), res.data(),
                                                                                                2 * N);
    for (std::size_t k = 0; k < N; ++k) out[k] = res[static_cast<int>(loop_slots<N>::tangent_of_c + k)];
  }

  /// Cotangents of the initial carries: the loop's trip count from them (a pass of its own
  /// over the steps), then fori_loop's reverse loop over that many steps of the body, which
  /// stores every step's carries on the heap as it runs forward and runs the body's vjp
  /// back over them (JAX refuses this: its reverse loops store into arrays sized before
  /// they run). Under vmap each lane has its own count: the lanes run back masked.
  static constexpr void vjp_ids(graph& g, const int* ct, const int* y, const int* x, int* out) {
    if (!any_nonzero(ct, N)) {
      for (std::size_t k = 0; k < N; ++k) out[k] = -1;
      return;
    }
    operand_list carries(static_cast<int>(N));
    carries.add(g, x, x, N);
    int steps = -1;
    record_loop<while_steps_op<CS, S, N>>(g, carries.ids.data(), &steps, 1);
    using rev = loop_slots<N>;
    operand_list in(static_cast<int>(rev::vjp_arity));
    in.add(g.constant(0.0));
    in.add(steps);
    in.add(g, x, x, N);
    in.add(g, ct, y, N);  // each shaped like its carry
    record_loop<loop_vjp_op<S, N>>(g, in.ids.data(), out, rev::vjp_outputs);
  }
};

/// The trip count's rules: a whole number, constant where it is defined, so its tangent and
/// its operands' cotangents are zero.
template <std::size_t N>
struct while_steps_rules {
  static constexpr void jvp_ids(graph&, const int*, const int*, const int*, int* out) { out[0] = -1; }
  static constexpr void vjp_ids(graph&, const int*, const int*, const int*, int* out) {
    for (std::size_t k = 0; k < N; ++k) out[k] = -1;
  }
};

/// The trip count's result: a scalar.
template <class CS, class S, std::size_t N>
constexpr shape while_steps_dims(int) {
  return shape{};
}

}  // namespace detail

/// One IR node (printed `while_loop`, its condition and body nested).
template <class CS, class S, std::size_t N>
struct op_traits<detail::while_op<CS, S, N>> : detail::while_rules<CS, S, N> {
  static constexpr const char* name = "while_loop";
  static constexpr int arity = static_cast<int>(N);
  static constexpr int outputs = static_cast<int>(N);
  static constexpr bool broadcasts = false;
  static constexpr auto result_dims = &detail::loop_result_dims<S, N, 0, 0, 0, false>;
  using cond_source = CS;
  using source = S;

  // Operands and results: the N carries (detail/exec/results_kernel.hpp, `run_while`).
  static constexpr detail::results_kernel_info results_kernel{
      detail::results_kind::while_loop, N, 0, 0, 0, false, true, 2, &detail::program_views<true, CS, S>, nullptr,
      &detail::first_refusal<CS, S>};

  static const char* parameters(bool single) {
    static const std::string text[2] = {
        detail::nested_programs_text<cond_source, source>({"cond_fun", "body"}, false),
        detail::nested_programs_text<cond_source, source>({"cond_fun", "body"}, true)};
    return text[single ? 1 : 0].c_str();
  }
};

/// The trip count of a while loop (printed `while_steps`, its condition and body nested).
template <class CS, class S, std::size_t N>
struct op_traits<detail::while_steps_op<CS, S, N>> : detail::while_steps_rules<N> {
  static constexpr const char* name = "while_steps";
  static constexpr int arity = static_cast<int>(N);
  static constexpr int outputs = 1;
  static constexpr bool broadcasts = false;
  static constexpr auto result_dims = &detail::while_steps_dims<CS, S, N>;
  using cond_source = CS;
  using source = S;

  // Operands: the N carries; result: the count (detail/exec/results_kernel.hpp,
  // `run_while_steps`).
  static constexpr detail::results_kernel_info results_kernel{
      detail::results_kind::while_count, N, 0, 0, 0, false, true, 2, &detail::program_views<true, CS, S>, nullptr,
      &detail::first_refusal<CS, S>};

  static const char* parameters(bool single) {
    static const std::string text[2] = {
        detail::nested_programs_text<cond_source, source>({"cond_fun", "body"}, false),
        detail::nested_programs_text<cond_source, source>({"cond_fun", "body"}, true)};
    return text[single ? 1 : 0].c_str();
  }
};

struct while_loop_fn {
  /// `body_fn(carry)` while `cond_fn(carry)`, from `init`. Traced carries make one
  /// `while_loop` node; plain numbers run the loop here, as a C++ loop.
  template <class Cond, class Body, class C>
  constexpr auto operator()(const Cond& cond_fn, const Body& body_fn, const C& init) const {
    constexpr bool traced = detail::any_leaf_v<C, detail::is_tracer>;
    if constexpr (!traced) {
      using R = std::remove_cvref_t<std::invoke_result_t<const Body&, const C&>>;
      constexpr bool same = std::is_same_v<R, C>;
      static_assert(same, CALX_MSG_WHILE_CARRY);
      if constexpr (same) {
        // Tensors are traced or not by value, not by type: traced ones make the node.
        if constexpr (detail::tensor_carry_v<C>)
          if (detail::traced_tensor_among(init)) return traced_loop<Cond, Body>(init);
        C c = init;
        while (cond_fn(c)) c = body_fn(c);
        return c;
      } else {
        return detail::invalid_program{};
      }
    } else {
      return traced_loop<Cond, Body>(init);
    }
  }

 private:
  template <class Cond, class Body, class C>
  static constexpr auto traced_loop(const C& init) {
    constexpr bool stateless = detail::stateless_v<Cond> && detail::stateless_v<Body>;
    static_assert(stateless, CALX_MSG_WHILE_STATELESS);
    constexpr bool leaves = detail::loop_carry_v<C>;
    static_assert(!stateless || leaves, CALX_MSG_WHILE_CARRY_LEAVES);
    if constexpr (stateless && leaves) {
      using CT = detail::rebind_t<C, tracer>;
      using R = std::remove_cvref_t<decltype(detail::make_stateless<Body>()(CT{}))>;
      using P = std::remove_cvref_t<decltype(detail::make_stateless<Cond>()(CT{}))>;
      constexpr bool same = std::is_same_v<detail::rebind_t<R, tracer>, CT>;
      static_assert(same, CALX_MSG_WHILE_CARRY);
      constexpr bool predicate =
          std::is_same_v<P, bool_tracer> || std::is_same_v<P, bool> || std::is_same_v<P, tensor<bool>>;
      static_assert(!same || predicate, CALX_MSG_WHILE_CONDITION);
      if constexpr (same && predicate) {
        using Dims = detail::value_dims<CT>;
        using Op = detail::while_op<detail::condition_source<detail::user_condition<Cond, CT>, Dims>,
                                    detail::step_source<detail::while_body_step<Body, CT>, Dims>,
                                    detail::value_count_v<C>>;
        return detail::record_carries<Op, CT>(init);
      } else {
        return detail::invalid_program{};
      }
    } else {
      return detail::invalid_program{};
    }
  }
};
/// `calx::while_loop(cond_fn, body_fn, init)`: see while_loop_fn.
inline constexpr while_loop_fn while_loop{};

CALX_END_NAMESPACE

#endif  // CALX_WHILE_LOOP_HPP
