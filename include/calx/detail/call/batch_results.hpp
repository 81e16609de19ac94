/// @file detail/call/batch_results.hpp
/// @brief The result types of a program run over runtime batches (a column wherever a
/// value is per sample) and the declaration of `batched_call`, which runs it. The
/// definition, with the SIMD and device executors it needs, is batched_call.hpp: only the
/// transforms that take runtime batches (grad, value_and_grad, jvp, vmap, program) include
/// it, so that jacfwd, jacrev and hessian bring no executor.
#ifndef CALX_DETAIL_CALL_BATCH_RESULTS_HPP
#define CALX_DETAIL_CALL_BATCH_RESULTS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/batched.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/tree.hpp>

#include <cstddef>
#include <tuple>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Whether any of the flat outputs [first, first + count) of `Program` is per sample.
template <class Program>
constexpr bool any_batched_output(std::size_t first, std::size_t count) {
  constexpr const auto& r = materialized<Program>::value;
  for (std::size_t o = 0; o < r.outputs.size(); ++o)
    if (r.output_offset[o] < first + count && r.output_offset[o + 1] > first && r.nodes[r.outputs[o]].batched)
      return true;
  return false;
}

/// `Tree` (tracer leaves) as a result: columns if any of its outputs is per sample.
template <class Program, class Tree, class L, std::size_t First>
using result_tree_t =
    rebind_t<Tree, std::conditional_t<any_batched_output<Program>(First, leaf_count_v<Tree>), batched<L>, L>>;

/// `result_tree_t` for each element of a returned tuple or pair, so that a per-sample
/// element is a column and a reduced one a number (a program's results over batches).
template <class Program, class Tree, class L, std::size_t First = 0>
struct split_result {
  using type = result_tree_t<Program, Tree, L, First>;
};
template <class Program, class A, class B, class L, std::size_t First>
struct split_result<Program, std::pair<A, B>, L, First> {
  using type = std::pair<typename split_result<Program, A, L, First>::type,
                         typename split_result<Program, B, L, First + leaf_count_v<A>>::type>;
};
// A class, not a lambda in decltype: clang 14 crashes reading such a type alias back from a
// precompiled header.
template <class Program, class L, std::size_t First, class Seq, class... T>
struct split_tuple;
template <class Program, class L, std::size_t First, std::size_t... I, class... T>
struct split_tuple<Program, L, First, std::index_sequence<I...>, T...> {
  using type = std::tuple<typename split_result<Program, T, L, First + leaf_offsets<T...>[I]>::type...>;
};
template <class Program, class... T, class L, std::size_t First>
struct split_result<Program, std::tuple<T...>, L, First> {
  using type = typename split_tuple<Program, L, First, std::index_sequence_for<T...>, T...>::type;
};

/// Runs `Program` on `args` (leaves numbers or batches); `Spec` is the traced structure of
/// all its outputs, `Result` the same structure with number or column leaves. Defined in
/// batched_call.hpp.
template <class Program, class Spec, class Result, class L, class... Args>
Result batched_call(const char* api, const Args&... args);

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_BATCH_RESULTS_HPP
