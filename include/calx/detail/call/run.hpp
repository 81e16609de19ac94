/// @file detail/call/run.hpp
/// @brief Running a program: inlined into a trace on tracers, generated code in place on
/// numbers.
#ifndef CALX_DETAIL_CALL_RUN_HPP
#define CALX_DETAIL_CALL_RUN_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/passes/expand.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The program codegen runs for values of type `L`: user ops without a kernel that `L` can
/// take are expanded into their decompositions (float and double run scalar kernels; SIMD
/// batches and device code run built-in kernels only: a user op's kernel and a cond's
/// results kernel are host functions).
/// `lowered_unchecked_t` is that program; `lowered_t` checks first that nothing refused
/// `Source` (`runnable`), where a transform compiles its program. (A loop's descriptor
/// names its body's program unchecked, and checks when it is read: `program_views`.)
#ifdef __CUDA_ARCH__
template <class Source, class L>
using lowered_unchecked_t = expanded_t<Source, expand_for::simd>;
#else
template <class Source, class L>
using lowered_unchecked_t = expanded_t<Source, std::is_floating_point_v<L> ? expand_for::scalar : expand_for::simd>;
#endif
template <class Source, class L>
struct lowered {
  static_assert(runnable<Source>());
  using type = lowered_unchecked_t<Source, L>;
};
template <class Source, class L>
using lowered_t = typename lowered<Source, L>::type;

/// Output nodes `res` of IR `r`, replayed into `g`, as tracers. A tensor's symbolic zero is
/// made a node of zeros: a null tracer reads as a scalar (see `unflatten_from`).
template <class IR>
constexpr std::array<tracer, IR::output_leaves> output_tracers(const IR& r, graph& g, const std::vector<int>& res) {
  std::array<tracer, IR::output_leaves> out{};
  for (std::size_t o = 0; o < IR::output_leaves; ++o) {
    const shape dims = r.nodes[r.outputs[o]].dims;
    out[o] = in_graph(g, res[o] < 0 && dims.rank > 0 ? broadcast_to(g, g.constant(0.0), dims) : res[o]);
  }
  return out;
}

/// Runs program `Source` on a flat array of tracers (one entry per value: see
/// `slot_count_v`): the program is inlined into their trace as it is (user ops stay single
/// nodes), which is how transforms compose; nothing here walks elements. Numbers run the
/// generated code in place instead (`run_into`, below).
template <class Source, std::size_t NI>
constexpr CALX_INLINE auto run(const std::array<tracer, NI>& in) {
  static_assert(NI == materialized<Source>::ir_type::input_leaves, "calx internal: input count mismatch");
  constexpr const auto& r = ir_v<Source>;
  graph* g = nullptr;
  std::vector<int> ids(NI, -1);  // (n, value): clang 14 rejects vector(n) in constant evaluation
  for (std::size_t i = 0; i < NI; ++i) {
    if (in[i].graph != nullptr) g = in[i].graph;
    ids[i] = in[i].id;
  }
  if (g == nullptr) trace_error("calx: a transformed function was traced with no traced input");
  return output_tracers(r, *g, replay(r, *g, ids));
}

/// How many numbers of `T`'s leaves are not `L`s (integer arguments, integer tensors): the
/// numbers `argument_values` converts.
template <class L, class T>
constexpr std::size_t converted_count() {
  using U = std::remove_cvref_t<T>;
  if constexpr (traced_whole<U>)
    return std::is_same_v<typename tree_node<U>::element, L> ? 0 : tree_node<U>::extent;
  else if constexpr (array_node<U>)
    return tree_node<U>::extent * converted_count<L, typename tree_node<U>::element>();
  else if constexpr (product_node<U>)
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::size_t{0} + ... + converted_count<L, child_t<U, I>>());
    }(std::make_index_sequence<child_count_v<U>>{});
  else
    return std::is_same_v<U, L> ? 0 : 1;
}

/// Marks, from `at[k]` on, which of `T`'s leaves hold `int`s (an index argument, an index
/// tensor), in flattening order.
template <class T>
constexpr void mark_int_leaves(bool* at, std::size_t& k) {
  using U = std::remove_cvref_t<T>;
  if constexpr (traced_whole<U>)
    at[k++] = std::is_same_v<typename tree_node<U>::element, int>;
  else if constexpr (array_node<U>)
    for (std::size_t e = 0; e < tree_node<U>::extent; ++e) mark_int_leaves<typename tree_node<U>::element>(at, k);
  else if constexpr (product_node<U>)
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (mark_int_leaves<child_t<U, I>>(at, k), ...);
    }(std::make_index_sequence<child_count_v<U>>{});
  else
    at[k++] = std::is_same_v<U, int>;
}
/// Which values of arguments `A...` are `int`s (`value[k]` for value k), as a type: index ops
/// read those as the caller holds them (`integer_inputs`).
template <class... A>
struct int_leaves {
  static constexpr std::size_t size = (std::size_t{0} + ... + value_count_v<A>);
  static constexpr std::array<bool, size == 0 ? 1 : size> value = [] {
    std::array<bool, size == 0 ? 1 : size> at{};
    std::size_t k = 0;
    (mark_int_leaves<A>(at.data(), k), ...);
    return at;
  }();
};

/// The values of argument structures of numbers, where they are: one pointer per value (a
/// tensor's elements in place, a scalar leaf by address), in flattening order. A leaf that
/// is not an `L` (an integer argument, an integer tensor's elements) is converted into a
/// copy held here; an `int` leaf is also kept where it is (`ints`, marked in `Ints`), which
/// index ops read without the round trip through `L`.
template <class L, std::size_t N, std::size_t C, class Ints = int_leaves<>>
struct argument_values {
  std::array<const L*, N == 0 ? 1 : N> at{};
  std::array<const int*, N == 0 ? 1 : N> ints{};
  std::array<L, C == 0 ? 1 : C> converted;  // every entry is written before it is read
  template <class... A>
  CALX_HOST_DEVICE constexpr explicit argument_values(const A&... a) {
    std::size_t k = 0, c = 0;
    auto put = [&]<class X>(const X& leaf) {
      if constexpr (traced_whole<X>) {
        if constexpr (std::is_same_v<typename tree_node<X>::element, L>) {
          at[k++] = leaf.data();
        } else {
          if constexpr (std::is_same_v<typename tree_node<X>::element, int>) ints[k] = leaf.data();
          at[k++] = &converted[c];
          for (std::size_t e = 0; e < tree_node<X>::extent; ++e) converted[c++] = static_cast<L>(leaf.data()[e]);
        }
      } else if constexpr (std::is_same_v<X, L>) {
        at[k++] = &leaf;
      } else {
        if constexpr (std::is_same_v<X, int>) ints[k] = &leaf;
        converted[c] = static_cast<L>(leaf);
        at[k++] = &converted[c++];
      }
    };
    (for_each_traced_leaf(a, put), ...);
  }
  argument_values(const argument_values&) = delete;  // `at` may point into `converted`
};
/// The values of `a...` as `argument_values` (made in place: it may point into itself).
template <class L, class... A>
CALX_HOST_DEVICE constexpr argument_values<L, (std::size_t{0} + ... + value_count_v<A>), (std::size_t{0} + ... + converted_count<L, A>()),
                                           int_leaves<A...>>
arguments_in_place(const A&... a) {
  return argument_values<L, (std::size_t{0} + ... + value_count_v<A>), (std::size_t{0} + ... + converted_count<L, A>()),
                         int_leaves<A...>>(a...);
}

/// The element counts of the values of structures `T...` in flattening order (a tensor's
/// extent, 1 for a number), from their types: what `result_values` holds, known at compile
/// time so that a call's output pointers fold to constants.
template <class T>
constexpr void put_value_sizes(std::size_t* out, std::size_t& k) {
  using U = std::remove_cvref_t<T>;
  if constexpr (traced_whole<U>)
    out[k++] = tree_node<U>::extent;
  else if constexpr (array_node<U>)
    for (std::size_t e = 0; e < tree_node<U>::extent; ++e) put_value_sizes<typename tree_node<U>::element>(out, k);
  else if constexpr (product_node<U>)
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (put_value_sizes<child_t<U, I>>(out, k), ...);
    }(std::make_index_sequence<child_count_v<U>>{});
  else
    out[k++] = 1;
}
template <class... T>
struct value_sizes {
  static constexpr std::size_t count = (std::size_t{0} + ... + value_count_v<T>);
  static constexpr std::array<std::size_t, count == 0 ? 1 : count> value = [] {
    std::array<std::size_t, count == 0 ? 1 : count> a{};
    std::size_t k = 0;
    (put_value_sizes<T>(a.data(), k), ...);
    return a;
  }();
};

/// Result structures' values, where the program writes them: the first element and the
/// element count of each, in flattening order. `Sizes` (a `value_sizes`) says the counts at
/// compile time where the types do; void where a value's size is given at run time.
template <class L, std::size_t N, class Sizes = void>
struct result_values {
  using sizes = Sizes;
  std::array<L*, N == 0 ? 1 : N> at{};
  std::array<std::size_t, N == 0 ? 1 : N> size{};
  constexpr result_values() = default;
  template <class... T>
  CALX_HOST_DEVICE constexpr explicit result_values(T&... t) {
    std::size_t k = 0;
    auto put = [&]<class X>(X& leaf) CALX_INLINE_LAMBDA {
      if constexpr (traced_whole<X>) {
        at[k] = leaf.data();
        size[k++] = tree_node<X>::extent;
      } else {
        at[k] = &leaf;
        size[k++] = 1;
      }
    };
    (for_each_traced_leaf(t, put), ...);
  }
};

template <class L, class... T>
CALX_HOST_DEVICE constexpr result_values<L, (std::size_t{0} + ... + value_count_v<T>), value_sizes<T...>> results_in_place(
    T&... t) {
  return result_values<L, (std::size_t{0} + ... + value_count_v<T>), value_sizes<T...>>(t...);
}

/// `values` and one more value, `size` numbers at `at` (residuals, outputs not returned).
template <class L, std::size_t N, class S>
CALX_HOST_DEVICE constexpr result_values<L, N + 1> and_value(const result_values<L, N, S>& values, L* at, std::size_t size) {
  result_values<L, N + 1> r{};
  for (std::size_t k = 0; k < N; ++k) {
    r.at[k] = values.at[k];
    r.size[k] = values.size[k];
  }
  r.at[N] = at;
  r.size[N] = size;
  return r;
}

/// Where each of `K` program outputs at flat positions `offset` lies among values of
/// element counts `sizes`: its value and its place in it.
struct output_place {
  std::size_t value = 0, at = 0;
};
template <std::size_t K, class Offsets, class Sizes>
constexpr std::array<output_place, K == 0 ? 1 : K> output_places(const Offsets& offset, const Sizes& sizes) {
  std::array<output_place, K == 0 ? 1 : K> p{};
  std::size_t v = 0, start = 0;
  for (std::size_t k = 0; k < K; ++k) {
    while (start + sizes[v] <= offset[k]) start += sizes[v++];
    p[k] = {v, offset[k] - start};
  }
  return p;
}

/// Runs program `Source` on numbers in place: input k read from `in[k]` (one pointer per
/// program input), outputs written into `out`'s values. An output may be part of a value (a
/// Jacobian's entries fill one tensor): it is found by its flat position, at compile time
/// where `out`'s sizes are known then.
template <class Source, class L, std::size_t NO, class S, class Ints = no_integer_inputs>
CALX_HOST_DEVICE CALX_INLINE void run_into(const L* const* in, const result_values<L, NO, S>& out, Ints ints = {}) {
  using M = materialized<lowered_t<Source, L>>;  // not a reference: device code may not bind the host's constant
  using IRT = typename M::ir_type;
  constexpr std::size_t K = IRT::output_leaves;
  std::array<L*, K == 0 ? 1 : K> op{};
  constexpr auto offset = M::value.output_offset;  // a local copy: device code cannot index the host's constant
  // Up to 64 outputs written out from their places; more (a large Jacobian entry by entry)
  // keep the loop, whose fold would grow the compile with the outputs.
  if constexpr (!std::is_void_v<S> && K <= written_out_walk_max * 4) {
    constexpr auto place = output_places<K>(offset, S::value);
    [&]<std::size_t... k>(std::index_sequence<k...>) CALX_INLINE_LAMBDA {
      ((op[k] = out.at[place[k].value] + place[k].at), ...);
    }(std::make_index_sequence<K>{});
  } else {
    std::size_t v = 0, start = 0;  // the value holding flat position `start`
    for (std::size_t k = 0; k < K; ++k) {
      while (start + out.size[v] <= offset[k]) start += out.size[v++];
      op[k] = out.at[v] + (offset[k] - start);
    }
  }
  evaluate<M::slotted>(in, op.data(), ints);
}

/// `run_into` on argument structures: their values are the program's inputs, one for one.
template <class Source, class L, std::size_t NI, std::size_t NC, class Ints, std::size_t NO, class S>
CALX_HOST_DEVICE CALX_INLINE void run_into(const argument_values<L, NI, NC, Ints>& in, const result_values<L, NO, S>& out) {
  static_assert(NI == materialized<Source>::ir_type::input_leaves, "calx internal: input count mismatch");
  run_into<Source>(in.at.data(), out, integer_inputs<Ints>{in.ints.data()});
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_RUN_HPP
