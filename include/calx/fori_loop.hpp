/// @file fori_loop.hpp
/// @brief `calx::fori_loop(lower, upper, body, init)`: JAX's `lax.fori_loop`. On traced
/// values it is one IR node (calx/detail/call/loop_op.hpp) whose body is a sub-program
/// traced once, run as a real loop: the IR and the generated code grow with the body, not
/// with the trip count. Under vmap the loop runs across SIMD lanes, lanes with different
/// trip counts each keeping their own carry. Forward mode is a loop of the body's jvp;
/// reverse mode a loop that stores the carries of every step on the heap and runs the
/// body's vjp backwards, the trip count known at compile time or only at run time (which
/// JAX refuses).
#ifndef CALX_FORI_LOOP_HPP
#define CALX_FORI_LOOP_HPP

#include <calx/config.hpp>
#include <calx/detail/call/loop_op.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE

namespace detail {

/// The user's `body(i, carry)` on flat carries (one tracer per value, a tensor's its node):
/// the carry rebuilt as `C` (the user's carry structure with traced leaves), the result's
/// values; numbers in it become constants.
template <class Body, class C>
struct user_step {
  template <std::size_t N>
  constexpr std::array<tracer, N> operator()(const tracer& i, const std::array<tracer, N>& c) const {
    return traced_values<N>(*i.graph, make_stateless<Body>()(i, unflatten<C>(c)));
  }
};

/// Whether a leaf of a carry is a value calx can loop over: a scalar, or a tensor of
/// floats or doubles (one value, whatever its size).
template <class T>
struct is_real_tensor : std::false_type {};
template <traced_whole T>
struct is_real_tensor<T> : std::is_floating_point<typename tree_node<T>::element> {};
template <class T>
struct is_loop_leaf : std::bool_constant<real_tracer<T> || std::is_floating_point_v<T> || is_real_tensor<T>::value> {};

/// A carry calx can loop over: at least one value, every leaf a loop leaf.
template <class C>
inline constexpr bool loop_carry_v = all_leaves_v<C, is_loop_leaf> && value_count_v<C> > 0;

/// A carry whose traced-ness only its values tell: tensors, and no scalar leaf (its traced
/// form is itself).
template <class C>
inline constexpr bool tensor_carry_v = loop_carry_v<C> && std::is_same_v<rebind_t<C, tracer>, std::remove_cvref_t<C>>;

template <class B>
concept loop_bound = std::integral<B> || real_tracer<B>;

/// Records loop op `Op` on operands `prefix...` (trip bounds) then the values of `init`,
/// and returns its results as the carry structure `CT`.
template <class Op, class CT, class C, class... P>
constexpr CT record_carries(const C& init, const P&... prefix) {
  graph* g = common_graph_of(prefix..., init);
  std::vector<int> in{operand_id(g, prefix)...};
  for (const int id : value_ids(g, init)) in.push_back(id);
  return record_results<Op, CT>(*g, in.data());
}

}  // namespace detail

struct fori_loop_fn {
  /// `body(i, carry)` for i in [lower, upper), from `init`. Traced bounds or carries make one
  /// `fori_loop` node; plain numbers run the loop here, as a C++ loop.
  template <class L, class U, class Body, class C>
  constexpr auto operator()(const L& lower, const U& upper, const Body& body, const C& init) const {
    constexpr bool bounds = detail::loop_bound<L> && detail::loop_bound<U>;
    static_assert(bounds, CALX_MSG_LOOP_BOUNDS);
    constexpr bool traced = real_tracer<L> || real_tracer<U> || detail::any_leaf_v<C, detail::is_tracer>;
    if constexpr (!bounds) {
      return detail::invalid_program{};
    } else if constexpr (!traced) {
      using R = std::remove_cvref_t<std::invoke_result_t<const Body&, const std::common_type_t<L, U>&, const C&>>;
      constexpr bool same = std::is_same_v<R, C>;
      static_assert(same, CALX_MSG_LOOP_CARRY);
      if constexpr (same) {
        // Tensors are traced or not by value, not by type: traced ones make the node.
        if constexpr (detail::tensor_carry_v<C>)
          if (detail::traced_tensor_among(init)) return traced_loop<Body>(lower, upper, init);
        C c = init;
        for (std::common_type_t<L, U> i = lower; i < upper; ++i) c = body(i, c);
        return c;
      } else {
        return detail::invalid_program{};
      }
    } else {
      return traced_loop<Body>(lower, upper, init);
    }
  }

 private:
  template <class Body, class L, class U, class C>
  static constexpr auto traced_loop(const L& lower, const U& upper, const C& init) {
    constexpr bool stateless = detail::stateless_v<Body>;
    static_assert(stateless, CALX_MSG_LOOP_STATELESS);
    constexpr bool leaves = detail::loop_carry_v<C>;
    static_assert(!stateless || leaves, CALX_MSG_LOOP_CARRY_LEAVES);
    if constexpr (stateless && leaves) {
      using CT = detail::rebind_t<C, tracer>;
      using R = std::remove_cvref_t<decltype(detail::make_stateless<Body>()(tracer{}, CT{}))>;
      constexpr bool same = std::is_same_v<detail::rebind_t<R, tracer>, CT>;
      static_assert(same, CALX_MSG_LOOP_CARRY);
      if constexpr (same) {
        using Op = detail::loop_op<detail::step_source<detail::user_step<Body, CT>, detail::value_dims<CT>>,
                                   detail::value_count_v<C>>;
        return detail::record_carries<Op, CT>(init, lower, upper);
      } else {
        return detail::invalid_program{};
      }
    } else {
      return detail::invalid_program{};
    }
  }
};
/// `calx::fori_loop(lower, upper, body, init)`: see fori_loop_fn.
inline constexpr fori_loop_fn fori_loop{};

CALX_END_NAMESPACE

#endif  // CALX_FORI_LOOP_HPP
