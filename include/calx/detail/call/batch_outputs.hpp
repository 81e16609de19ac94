/// @file detail/call/batch_outputs.hpp
/// @brief The results of a batched run: their types, and the `output_view`s the executor
/// writes through, whether calx allocates the results or the caller gives buffers (`.into`).
///
/// A per-sample output `Out` (tracer leaves) becomes:
/// - for a std::tuple or std::pair, the same tuple or pair of results, one per element (as JAX
///   returns a tuple of batched outputs);
/// - for anything else X (a scalar, a std::array, ...), one X per sample, indexed
///   `r[sample]...`: `calx::batched<X>`, or `std::array<X, N>` for a batch of compile-time
///   length N; or one X for an output that does not depend on the batch (out_axes none).
/// A destination for `.into` has that structure, except that where the result has a batch of
/// structures X, it may also give the structure of batches (one column per element of a
/// std::array, say), so that results can be written into the caller's own columns.
#ifndef CALX_DETAIL_CALL_BATCH_OUTPUTS_HPP
#define CALX_DETAIL_CALL_BATCH_OUTPUTS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/batched.hpp>
#include <calx/detail/call/batch_inputs.hpp>
#include <calx/detail/exec/io.hpp>
#include <calx/device_span.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class T>
inline constexpr bool is_tuple_like_node_v = false;
template <class... T>
inline constexpr bool is_tuple_like_node_v<std::tuple<T...>> = true;
template <class A, class B>
inline constexpr bool is_tuple_like_node_v<std::pair<A, B>> = true;

/// The batch of a result leaf: `calx::batched<X>` (runtime length) or `std::array<X, N>`.
template <std::size_t N>
struct batch_of {
  template <class X>
  using type = std::conditional_t<N == std::dynamic_extent, batched<X>, std::array<X, N == std::dynamic_extent ? 1 : N>>;
};

/// The result for per-sample output `Out` with leaves `L`; `Once`: returned once, not per
/// sample.
template <class Out, class L, class Batch, bool Once>
struct result_of {
  using type = std::conditional_t<Once, rebind_t<Out, L>, typename Batch::template type<rebind_t<Out, L>>>;
};
template <class... T, class L, class Batch, bool Once>
struct result_of<std::tuple<T...>, L, Batch, Once> {
  using type = std::tuple<typename result_of<T, L, Batch, Once>::type...>;
};
template <class A, class B, class L, class Batch, bool Once>
struct result_of<std::pair<A, B>, L, Batch, Once> {
  using type = std::pair<typename result_of<A, L, Batch, Once>::type, typename result_of<B, L, Batch, Once>::type>;
};

/// Whether `D` holds one `X` per sample, contiguously.
template <class D, class X>
concept sample_range = requires(D& d) {
  { d.data() } -> std::convertible_to<const X*>;
  d.size();
} && std::is_same_v<std::remove_cvref_t<decltype(*std::declval<D&>().data())>, X>;

/// Whether destination `D` can receive output `Spec` (tracer leaves) with leaves `L`;
/// `Once` outputs take values, the others batches.
template <class Spec, class L, class D, bool Once>
constexpr bool dest_matches() {
  using X = rebind_t<Spec, L>;
  using DD = std::remove_cvref_t<D>;
  if constexpr (Once) {
    return std::is_same_v<DD, X>;
  } else if constexpr (sample_range<DD, X>) {
    return true;
  } else if constexpr (real_tracer<Spec>) {
    return false;
  } else if constexpr (structure<DD> && structure<Spec>) {  // a structure of batches
    if constexpr (children_of<DD>() != children_of<Spec>()) {
      return false;
    } else {
      return []<std::size_t... I>(std::index_sequence<I...>) {
        return (dest_matches<child_t<Spec, I>, L, child_t<DD, I>, Once>() && ...);
      }(std::make_index_sequence<children_of<Spec>()>{});
    }
  } else {
    return false;
  }
}

/// The stride in bytes that every output column of destination `D` for output `Spec` has,
/// read from the types: sizeof(X) for a range of X; `no_column` where `D` only takes values
/// (`Once`); 0 where columns differ (a structure of ranges of different types).
inline constexpr std::size_t no_column = ~std::size_t{0};
constexpr std::size_t common_stride(std::size_t a, std::size_t b) {
  return a == no_column ? b : b == no_column || a == b ? a : 0;
}
template <class Spec, class L, class D, bool Once>
constexpr std::size_t column_stride() {
  using X = rebind_t<Spec, L>;
  using DD = std::remove_cvref_t<D>;
  if constexpr (Once) {
    return no_column;
  } else if constexpr (sample_range<DD, X>) {
    return sizeof(X);
  } else {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      std::size_t s = no_column;
      ((s = common_stride(s, column_stride<child_t<Spec, I>, L, child_t<DD, I>, Once>())), ...);
      return s;
    }(std::make_index_sequence<children_of<Spec>()>{});
  }
}

/// Adds the leaves of `x` (a structure of `L`) to `out`, in flattening order.
template <class L, class X>
CALX_INLINE void leaf_addresses(X& x, L**& out) {
  for_each_leaf(x, [&](auto& leaf) CALX_INLINE_LAMBDA { *out++ = &leaf; });
}

/// The output columns of a range of `batch` samples of structure `X` (leaves `L`) starting
/// at `first`: one strided column per leaf, `sizeof(X)` apart (none to point at when empty).
template <class L, class X>
CALX_INLINE void sample_columns(X* first, std::size_t batch, output_view<L>*& out) {
  if (batch == 0) {
    out += leaf_count_v<X>;
    return;
  }
  std::array<L*, leaf_count_v<X>> p{};
  L** q = p.data();
  leaf_addresses<L>(*first, q);
  for (L* leaf : p) *out++ = output_view<L>{leaf, sizeof(X), nullptr};
}

/// Output views of destination `d` for output `Spec`: scalars for `Once` outputs, strided
/// columns for batches. Throws std::invalid_argument when a batch's length is not `batch`.
template <class Spec, class L, bool Once, class D>
CALX_INLINE void collect_dest(D& d, output_view<L>*& out, std::size_t batch, const char* api) {
  using X = rebind_t<Spec, L>;
  using DD = std::remove_cvref_t<D>;
  if constexpr (Once) {
    std::array<L*, leaf_count_v<Spec> == 0 ? 1 : leaf_count_v<Spec>> p{};
    L** q = p.data();
    leaf_addresses<L>(d, q);
    for (std::size_t k = 0; k < leaf_count_v<Spec>; ++k) (out++)->scalar = p[k];
  } else if constexpr (sample_range<DD, X>) {
    if (static_cast<std::size_t>(d.size()) != batch) wrong_output_length(static_cast<std::size_t>(d.size()), batch, api);
    sample_columns<L>(d.data(), batch, out);
  } else {
    [&]<std::size_t... I>(std::index_sequence<I...>) CALX_INLINE_LAMBDA {
      (collect_dest<child_t<Spec, I>, L, Once>(child<I>(d), out, batch, api), ...);
    }(std::make_index_sequence<children_of<Spec>()>{});
  }
}

/// Where destination `D`'s batches are: a bit set of 1 (host memory) and 2 (device memory,
/// calx::device_span or calx::device_vector); 0 for values only.
template <class D>
constexpr unsigned dest_memory() {
  using DD = std::remove_cvref_t<D>;
  if constexpr (is_device_range_v<DD>) {
    return 2;
  } else if constexpr (requires(DD& d) {
                         *d.data();
                         d.size();
                       }) {
    using E = std::remove_cvref_t<decltype(*std::declval<DD&>().data())>;
    constexpr unsigned inner = dest_memory<E>();
    return inner == 0 ? 1 : inner;  // a range of values, or a structure of ranges
  } else if constexpr (is_tuple_like_node_v<DD>) {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (0u | ... | dest_memory<std::tuple_element_t<I, DD>>());
    }(std::make_index_sequence<std::tuple_size_v<DD>>{});
  } else {
    return 0;
  }
}

/// Sizes every runtime batch of a result to `batch` samples.
template <class R>
void resize_results(R& r, std::size_t batch) {
  if constexpr (requires { r.resize(batch); })
    r.resize(batch);
  else if constexpr (is_tuple_like_node_v<R>)
    std::apply([&](auto&... e) { (resize_results(e, batch), ...); }, r);
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_BATCH_OUTPUTS_HPP
