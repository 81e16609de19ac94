/// @file program.hpp
/// @brief `calx::program`: a traced function's IR held as a compile-time constant, and
/// `calx::trace(f, args...)`, which makes one (like `jax.make_jaxpr`).
#ifndef CALX_PROGRAM_HPP
#define CALX_PROGRAM_HPP

#include <calx/config.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/call/batched_call.hpp>
#include <calx/detail/call/run.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/returned.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <type_traits>

CALX_BEGIN_NAMESPACE

/// A traced function: its IR as a `static constexpr` member, keyed by the function's type
/// and argument structure, and evaluated by generated straight-line code when called.
/// `Leaf` is the precision it was traced for (float or double), used when printing.
///
/// @tparam Source  a type whose `static constexpr graph build()` makes the IR.
/// @tparam Leaf    float or double.
/// @tparam Args    the argument structures (leaves `tracer`).
template <class Source, class Leaf, class... Args>
struct program {
  using value_type = Leaf;
  using output_tree = typename Source::output_tree;
  static constexpr const auto& ir = detail::ir_v<Source>;

  /// Runs the program on arguments with the traced structure (float or double leaves).
  /// The IR does not depend on the precision: float leaves run float code, double leaves
  /// double code; all leaves of one call share a precision.
  template <class... A>
    requires(sizeof...(A) == sizeof...(Args) && (std::is_same_v<detail::rebind_t<A, tracer>, Args> && ...) &&
             (detail::leaves_are_v<A, detail::common_leaf_t<A...>> && ...))
  constexpr CALX_INLINE auto operator()(const A&... a) const {
    using L = detail::common_leaf_t<A...>;
    if constexpr (std::is_same_v<L, tracer>) {
      return detail::unflatten<detail::rebind_t<output_tree, L>>(detail::run<Source>(detail::flatten_args<L>(a...)));
    } else if constexpr ((detail::has_batch_v<A> || ...)) {
      // Runtime batches (traced as batches): the SIMD loop over the samples; a result that
      // is per sample is a column (calx::batched), as grad's results over batches are.
      using Result = typename detail::split_result<Source, output_tree, L>::type;
      return detail::batched_call<Source, output_tree, Result, L>("calx::program", a...);
    } else {  // numbers: read and written in place
      return detail::returned_written<detail::rebind_t<output_tree, L>>([&](auto& out) {
        detail::run_into<Source>(detail::arguments_in_place<L>(a...), detail::results_in_place<L>(out));
      });
    }
  }
};

/// The program of `f` for arguments shaped like `args` (float or double leaves, in
/// std::array / std::tuple / std::pair). `f` must be stateless; see the README.
///
/// Example: `calx::to_string(calx::trace([](auto x) { return calx::sin(x) * x; }, 1.0))`
struct trace_fn {
  template <class F, class... A>
  constexpr auto operator()(const F&, const A&...) const {
    if constexpr (detail::diagnose_arguments<A...>() &&
                  detail::diagnose_traceable<F, detail::rebind_t<A, tracer>...>())
      return program<detail::trace_source<F, detail::rebind_t<A, tracer>...>, detail::common_leaf_t<A...>,
                     detail::rebind_t<A, tracer>...>{};
    else
      return detail::tracing_failed<F, detail::rebind_t<A, tracer>...>();
  }
};
inline constexpr trace_fn trace{};

CALX_END_NAMESPACE

#endif // CALX_PROGRAM_HPP
