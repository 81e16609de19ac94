/// @file tree.hpp
/// @brief Argument and result structures ("pytrees"): float/double/tracer leaves inside
/// std::array, std::tuple, std::pair, Boost.Hana structs (calx/tree_hana.hpp) and any type
/// that specialises `calx::tree_node`, nested freely. Transforms flatten them into the
/// program's flat inputs and rebuild results of the same shape; every walk over a structure
/// is `detail::for_each_leaf`, `detail::build_tree` or `detail::tree_traits` here.
#ifndef CALX_TREE_HPP
#define CALX_TREE_HPP

#include <calx/batched.hpp>
#include <calx/config.hpp>
#include <calx/device_span.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

namespace detail {
/// Extra leaf types: calx/simd/batch.hpp adds xsimd batches of float and double.
template <class T>
struct is_extra_leaf : std::false_type {};
}  // namespace detail

/// A leaf of a structure: a float, a double, a traced value, or (with calx/simd/batch.hpp)
/// an xsimd batch of floats or doubles, which evaluates one sample per lane.
template <class T>
concept tree_leaf = std::is_floating_point_v<T> || real_tracer<T> || detail::is_extra_leaf<T>::value;

/// An integer leaf: an argument that is passed to the function (as a traced value, converted
/// to the program's precision) but never differentiated or batched, like JAX's static
/// arguments. It does not decide the program's precision.
template <class T>
concept integer_leaf = std::is_integral_v<T> && !std::same_as<T, bool>;

/// What `tree_node<T>::with` names when `T` cannot hold other leaves (a struct whose members
/// are fixed `double`s cannot hold traced values).
template <class T>
struct not_rebindable {};

/// How calx sees inside a structure: the one customisation point of its tree library (JAX's
/// pytree registry). Every walk over arguments and results (flattening, rebuilding, checking,
/// batching) goes through it. A structure type `T` specialises it in one of two ways:
///
/// - a product (std::tuple, std::pair, a Boost.Hana struct: calx/tree_hana.hpp):
///   `using children = std::tuple<C...>;` the children's types in flattening order;
///   `template <std::size_t I, class S> static constexpr auto& get(S& t);` child I of `t`
///   (`S` is `T` or `const T`);
/// - an array (std::array): `using element = E;` and `static constexpr std::size_t extent`,
///   children read with `t[k]` (or, where the node has one, with its
///   `template <class S> static constexpr auto& at(S& t, std::size_t k)`: an Eigen matrix
///   has no `t[k]`) and walked by a loop, so long arrays cost no pack expansion;
///
/// and, for both, `template <template <class> class F> using with = ...;` the same structure
/// with every child type `C` replaced by `F<C>` (`calx::not_rebindable<T>` when it cannot be):
/// calx builds the structure of tracers a traced function receives, and the structure of
/// numbers a gradient returns, with it. A rebuilt structure is value-initialised and its
/// leaves assigned, so it must be default-constructible. Anything else is a leaf. A type
/// calx must refuse with a message of its own (a dynamic-size Eigen matrix) has instead a
/// `template <class = void> static constexpr void refusal()` whose static_assert says why
/// and what to do: an argument of that type is reported with it alone.
template <class T>
struct tree_node {};

template <class T, std::size_t N>
struct tree_node<std::array<T, N>> {
  using element = T;
  static constexpr std::size_t extent = N;
  template <template <class> class F>
  using with = std::array<F<T>, N>;
};

template <class... T>
struct tree_node<std::tuple<T...>> {
  using children = std::tuple<T...>;
  template <std::size_t I, class S>
  CALX_HOST_DEVICE static constexpr auto& get(S& t) {
    return std::get<I>(t);
  }
  template <template <class> class F>
  using with = std::tuple<F<T>...>;
};

template <class A, class B>
struct tree_node<std::pair<A, B>> {
  using children = std::tuple<A, B>;
  template <std::size_t I, class S>
  CALX_HOST_DEVICE static constexpr auto& get(S& t) {
    if constexpr (I == 0)
      return t.first;
    else
      return t.second;
  }
  template <template <class> class F>
  using with = std::pair<F<A>, F<B>>;
};

namespace detail {

/// Marks a batched input in the argument structures calx traces (the function itself
/// sees a `calx::batch_tracer`, which marks it too).
struct batched_leaf {};
/// Whether leaf `T` of an argument structure calx traces is a runtime batch.
template <class T>
inline constexpr bool batch_mark_v = std::is_same_v<T, batched_leaf> || std::is_same_v<T, batch_tracer>;

/// Whether `T` is a product node (children named one by one) or an array node (a loop).
template <class T>
concept product_node = requires { typename tree_node<T>::children; };
template <class T>
concept array_node = requires {
  typename tree_node<T>::element;
  tree_node<T>::extent;
};
template <class T>
concept structure = product_node<T> || array_node<T>;

/// An array node that is traced whole (calx::tensor): number walks see its elements, traced
/// walks (`for_each_traced_leaf`) see it as one leaf filling `extent` flat positions.
/// `tree_node<T>` gives `traced(t)`, the tracer of its node (null: it holds numbers), and
/// `set_traced(t, flat)`, which makes it the node of the tracers `flat[0 .. extent)`, and
/// `set_node(t, h)`, which makes it the node of tracer `h` (of its shape).
template <class T>
concept traced_whole = array_node<T> && requires(const T& t) {
  { tree_node<T>::traced(t) } -> std::same_as<tracer>;
};

template <class T>
inline constexpr std::size_t child_count_v = std::tuple_size_v<typename tree_node<T>::children>;

/// The number of children of structure `T`, the type of child I, and child I of `t`, alike
/// for products and arrays (for walks over two structures whose kinds may differ: an array
/// output written into a tuple of columns).
template <class T>
constexpr std::size_t children_of() {
  if constexpr (array_node<T>)
    return tree_node<T>::extent;
  else
    return child_count_v<T>;
}
template <class T, std::size_t I>
struct child_type {
  using type = std::tuple_element_t<I, typename tree_node<T>::children>;
};
template <array_node T, std::size_t I>
struct child_type<T, I> {
  using type = typename tree_node<T>::element;
};
template <class T, std::size_t I>
using child_t = typename child_type<T, I>::type;
/// Whether structure `T` holds a `traced_whole` node (a tensor) anywhere.
template <class T>
constexpr bool holds_whole_node() {
  using U = std::remove_cvref_t<T>;
  if constexpr (traced_whole<U>)
    return true;
  else if constexpr (array_node<U>)
    return holds_whole_node<typename tree_node<U>::element>();
  else if constexpr (product_node<U>)
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (holds_whole_node<child_t<U, I>>() || ...);
    }(std::make_index_sequence<child_count_v<U>>{});
  else
    return false;
}

/// Element `k` of array node `t` (`t` may be const).
template <class T>
CALX_HOST_DEVICE constexpr CALX_INLINE auto& array_element(T& t, std::size_t k) {
  using U = std::remove_const_t<T>;
  if constexpr (requires { tree_node<U>::at(t, k); })
    return tree_node<U>::at(t, k);
  else
    return t[k];
}

template <std::size_t I, class T>
CALX_HOST_DEVICE constexpr CALX_INLINE auto& child(T& t) {
  using U = std::remove_const_t<T>;
  if constexpr (array_node<U>)
    return array_element(t, I);
  else
    return tree_node<U>::template get<I>(t);
}

/// Arrays of at most this many elements are walked written out, so that each element's
/// address is a constant (an Eigen matrix's coefficient k is at a computed offset) and the
/// pointers a small call passes are folded; longer ones are a loop.
inline constexpr std::size_t written_out_walk_max = 16;

/// Calls `f(element)` on each element of array node `t`.
template <class T, class F>
CALX_HOST_DEVICE constexpr CALX_INLINE void for_each_element(T& t, F&& f) {
  constexpr std::size_t n = tree_node<std::remove_const_t<T>>::extent;
  if constexpr (n <= written_out_walk_max) {
    [&]<std::size_t... K>(std::index_sequence<K...>) CALX_INLINE_LAMBDA {
      (f(array_element(t, K)), ...);
    }(std::make_index_sequence<n>{});
  } else {
    for (std::size_t k = 0; k < n; ++k) f(array_element(t, k));
  }
}

/// Calls `f(leaf)` on every leaf of `t`, depth-first, left to right (the flattening order);
/// `t` may be const. A leaf is anything that is not a structure.
template <class T, class F>
CALX_HOST_DEVICE constexpr CALX_INLINE void for_each_leaf(T& t, F&& f) {
  using U = std::remove_const_t<T>;
  if constexpr (array_node<U>) {
    for_each_element(t, [&](auto& e) CALX_INLINE_LAMBDA { for_each_leaf(e, f); });
  } else if constexpr (product_node<U>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) CALX_INLINE_LAMBDA {
      (for_each_leaf(tree_node<U>::template get<I>(t), f), ...);
    }(std::make_index_sequence<child_count_v<U>>{});
  } else {
    f(t);
  }
}

/// `for_each_leaf` for structures of traced values: a `traced_whole` node is one leaf.
template <class T, class F>
constexpr CALX_INLINE void for_each_traced_leaf(T& t, F&& f) {
  using U = std::remove_const_t<T>;
  if constexpr (traced_whole<U>) {
    f(t);
  } else if constexpr (array_node<U>) {
    for_each_element(t, [&](auto& e) CALX_INLINE_LAMBDA { for_each_traced_leaf(e, f); });
  } else if constexpr (product_node<U>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (for_each_traced_leaf(tree_node<U>::template get<I>(t), f), ...); }(
        std::make_index_sequence<child_count_v<U>>{});
  } else {
    f(t);
  }
}

/// `zip_leaves` for structures of traced values (`traced_whole` nodes are leaves).
template <class A, class B, class F>
constexpr void zip_traced_leaves(A& a, B& b, F&& f) {
  using U = std::remove_const_t<A>;
  using V = std::remove_const_t<B>;
  if constexpr (traced_whole<U> || traced_whole<V>) {
    f(a, b);
  } else if constexpr (array_node<U>) {
    for (std::size_t k = 0; k < tree_node<U>::extent; ++k) zip_traced_leaves(array_element(a, k), array_element(b, k), f);
  } else if constexpr (product_node<U>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (zip_traced_leaves(tree_node<U>::template get<I>(a), tree_node<V>::template get<I>(b), f), ...);
    }(std::make_index_sequence<child_count_v<U>>{});
  } else {
    f(a, b);
  }
}

/// Calls `f(a_leaf, b_leaf)` on the leaves of two structures of the same shape (their leaf
/// types may differ), in flattening order.
template <class A, class B, class F>
CALX_HOST_DEVICE constexpr CALX_INLINE void zip_leaves(A& a, B& b, F&& f) {
  using U = std::remove_const_t<A>;
  if constexpr (array_node<U>) {
    for (std::size_t k = 0; k < tree_node<U>::extent; ++k) zip_leaves(array_element(a, k), array_element(b, k), f);
  } else if constexpr (product_node<U>) {
    using V = std::remove_const_t<B>;
    [&]<std::size_t... I>(std::index_sequence<I...>) CALX_INLINE_LAMBDA {
      (zip_leaves(tree_node<U>::template get<I>(a), tree_node<V>::template get<I>(b), f), ...);
    }(std::make_index_sequence<child_count_v<U>>{});
  } else {
    f(a, b);
  }
}

/// A `T` whose leaves are `make(leaf)` in flattening order, `leaf` being the value-initialised
/// leaf to replace (its type says which leaf is wanted).
template <class T, class Make>
CALX_HOST_DEVICE constexpr T build_tree(Make&& make) {
  T t{};
  for_each_leaf(t, [&](auto& leaf) { leaf = make(leaf); });
  return t;
}

/// Facts about the leaf types of a structure, for one leaf (the primary template), a runtime
/// batch, and every structure alike.
template <class T>
struct tree_traits {
  static constexpr bool valid = tree_leaf<T> || integer_leaf<T> || std::is_same_v<T, batched_leaf>;
  static constexpr bool has_batch = batch_mark_v<T>;
  static constexpr bool has_integer = integer_leaf<T>;
  static constexpr std::size_t leaves = 1;
  static constexpr std::size_t values = 1;
  /// A batch's mark stays one among tracers (a batch_tracer), so that the functions a
  /// traced function calls see the batch too.
  template <class L>
  using rebind = std::conditional_t<batch_mark_v<T> && std::is_same_v<L, tracer>, batch_tracer, L>;
  /// The precision the leaves ask for: the first float/double leaf (void: none).
  using first_leaf = std::conditional_t<integer_leaf<T>, void, std::conditional_t<real_tracer<T>, tracer, T>>;
  template <class L>
  static constexpr bool uniform =
      std::is_same_v<T, L> || integer_leaf<T> || (std::is_same_v<T, batch_tracer> && std::is_same_v<L, tracer>);
};

/// The first of `T...` that is not void, or void.
template <class... T>
struct first_non_void {
  using type = void;
};
template <class T, class... R>
struct first_non_void<T, R...> {
  using type = std::conditional_t<std::is_void_v<T>, typename first_non_void<R...>::type, T>;
};

/// A runtime batch of floats or doubles as an argument: one flat input with one value per
/// sample. Its gradient is a `calx::batched<T>`.
template <class T, template <class> class Column = batched>
struct batch_tree_traits {
  static constexpr bool valid = std::is_floating_point_v<T>;
  static constexpr bool has_batch = true;
  static constexpr bool has_integer = false;
  static constexpr std::size_t leaves = 1;
  static constexpr std::size_t values = 1;
  template <class L>
  using rebind = std::conditional_t<std::is_same_v<L, tracer>, batched_leaf, Column<L>>;
  using first_leaf = T;
  template <class L>
  static constexpr bool uniform = std::is_same_v<T, L>;
};
/// A runtime batch of structures (std::array, tuples, calx::tensor, Hana structs); defined
/// below, with the batch's mark.
template <class E>
struct structure_batch_traits;
template <class E>
using batch_traits_of = std::conditional_t<structure<E>, structure_batch_traits<E>, batch_tree_traits<E>>;
template <class T, class A>
struct tree_traits<std::vector<T, A>> : batch_traits_of<T> {};
template <class T>
struct tree_traits<std::span<T>> : batch_traits_of<std::remove_const_t<T>> {};
/// A batch in device memory: its gradient is a calx::device_vector (docs/cuda.md).
template <class T>
struct tree_traits<device_span<T>> : batch_tree_traits<std::remove_const_t<T>, device_vector> {};

/// Each leaf type of a structure replaced by `L` (for `tree_node<T>::with`).
template <class L>
struct leaves_as {
  template <class C>
  using type = typename tree_traits<C>::template rebind<L>;
};

template <class T>
struct tree_traits<not_rebindable<T>> {
  static constexpr bool valid = false;
  static constexpr bool has_batch = false;
  static constexpr bool has_integer = false;
  static constexpr std::size_t leaves = 0;
  static constexpr std::size_t values = 0;
  template <class L>
  using rebind = not_rebindable<T>;
  using first_leaf = void;
  template <class L>
  static constexpr bool uniform = false;
};

/// A type its tree node refuses (see `tree_node`): no leaf, and nothing to trace.
template <class T>
concept refused_type = requires { tree_node<T>::refusal(); };
template <refused_type T>
struct tree_traits<T> : tree_traits<not_rebindable<T>> {};

template <class T, class Children = typename tree_node<T>::children>
struct product_traits;
template <class T, class... C>
struct product_traits<T, std::tuple<C...>> {
  static constexpr bool valid = (tree_traits<C>::valid && ...);
  static constexpr bool has_batch = (tree_traits<C>::has_batch || ...);
  static constexpr bool has_integer = (tree_traits<C>::has_integer || ...);
  static constexpr std::size_t leaves = (std::size_t{0} + ... + tree_traits<C>::leaves);
  static constexpr std::size_t values = (std::size_t{0} + ... + tree_traits<C>::values);
  template <class L>
  using rebind = typename tree_node<T>::template with<leaves_as<L>::template type>;
  using first_leaf = typename first_non_void<typename tree_traits<C>::first_leaf...>::type;
  template <class L>
  static constexpr bool uniform = (tree_traits<C>::template uniform<L> && ...);
};
template <product_node T>
struct tree_traits<T> : product_traits<T> {};

template <array_node T>
struct tree_traits<T> {
  using E = typename tree_node<T>::element;
  static constexpr bool whole = traced_whole<T>;  // a tensor: its leaves may be traced as one
  static constexpr bool valid = tree_traits<E>::valid;
  static constexpr bool has_batch = tree_traits<E>::has_batch;
  static constexpr bool has_integer = tree_traits<E>::has_integer;
  static constexpr std::size_t leaves = tree_node<T>::extent * tree_traits<E>::leaves;
  static constexpr std::size_t values = whole ? 1 : tree_node<T>::extent * tree_traits<E>::values;  // a tensor counts once
  template <class L>
  using rebind = typename tree_node<T>::template with<leaves_as<L>::template type>;
  using first_leaf = typename tree_traits<E>::first_leaf;
  template <class L>
  static constexpr bool uniform = tree_traits<E>::template uniform<L> || (whole && std::is_same_v<L, tracer>);
};

/// `T` with its `From` leaves made `To`; tensors and other leaves stay as they are.
template <class T, class From, class To>
struct swap_leaves {
  using type = std::conditional_t<std::is_same_v<T, From>, To, T>;
};
template <class T, class From, class To>
  requires(structure<T> && !traced_whole<T>)
struct swap_leaves<T, From, To> {
  template <class C>
  using child = typename swap_leaves<C, From, To>::type;
  using swapped = typename tree_node<T>::template with<child>;
  // A struct whose members are fixed types (a non-template struct of tensors) stays itself.
  using type = std::conditional_t<std::is_same_v<swapped, not_rebindable<T>>, T, swapped>;
};
/// A per-sample rank-0 tensor is a batch of scalars: a batch_tracer, which calx::sum and
/// calx::mean reduce over the batch (a rank-0 tensor's own sum is itself).
template <traced_whole T>
struct swap_leaves<T, tracer, batch_tracer> {
  using type = std::conditional_t<tree_node<T>::dims.rank == 0, batch_tracer, T>;
};
/// What a function mapped over a batch sees for one sample (vmap inside a trace): `T` with
/// its batch_tracers made tracers; `batch_tree_t`, the other way, types per-sample results
/// as batches.
template <class T>
using sample_tree_t = typename swap_leaves<T, batch_tracer, tracer>::type;
template <class T>
using batch_tree_t = typename swap_leaves<T, tracer, batch_tracer>::type;

/// Marks a runtime batch of structures `E` in the argument structures calx traces: every
/// value of `E` becomes an input with one value per sample. The traced function receives
/// `E`'s traced form with its scalars as `calx::batch_tracer`s and its tensors as tensors
/// whose nodes hold one tensor per sample (docs/vmap.md).
template <class E>
struct batched_structure {};
template <class T>
inline constexpr bool is_batched_structure_v = false;
template <class E>
inline constexpr bool is_batched_structure_v<batched_structure<E>> = true;

/// A std::vector or std::span of structures `E` as an argument: E's values, one per sample
/// each. Its gradient is a `calx::batched` column of `E`s.
template <class E>
struct structure_batch_traits {
  using sample = tree_traits<E>;
  static constexpr bool valid = sample::valid && !sample::has_batch && !sample::has_integer;
  static constexpr bool has_batch = true;
  static constexpr bool has_integer = false;
  static constexpr std::size_t leaves = sample::leaves;
  static constexpr std::size_t values = sample::values;
  template <class L>
  using rebind = std::conditional_t<std::is_same_v<L, tracer>, batched_structure<E>,
                                    batched<typename sample::template rebind<L>>>;
  using first_leaf = typename sample::first_leaf;
  template <class L>
  static constexpr bool uniform = sample::template uniform<L>;
};
template <class E>
struct tree_traits<batched_structure<E>> {
  using traced = typename tree_traits<E>::template rebind<tracer>;
  static constexpr bool valid = tree_traits<traced>::valid;
  static constexpr bool has_batch = true;
  static constexpr bool has_integer = false;
  static constexpr std::size_t leaves = tree_traits<E>::leaves;
  static constexpr std::size_t values = tree_traits<E>::values;
  template <class L>
  using rebind = std::conditional_t<std::is_same_v<L, tracer>, batch_tree_t<traced>, typename tree_traits<E>::template rebind<L>>;
  using first_leaf = tracer;
  template <class L>
  static constexpr bool uniform = std::is_same_v<L, tracer>;
};

/// Whether every leaf type of `T` satisfies `P` (`any_leaf_v`: some leaf).
template <class T, template <class> class P>
struct all_leaves : P<T> {};
template <class T, template <class> class P>
struct any_leaf : P<T> {};
template <array_node T, template <class> class P>
struct all_leaves<T, P> : all_leaves<typename tree_node<T>::element, P> {};
template <array_node T, template <class> class P>
struct any_leaf<T, P> : any_leaf<typename tree_node<T>::element, P> {};
template <traced_whole T, template <class> class P>  // a tensor is asked as a whole
struct all_leaves<T, P> : P<T> {};
template <traced_whole T, template <class> class P>
struct any_leaf<T, P> : P<T> {};
template <class Children, template <class> class P>
struct all_children;
template <class... C, template <class> class P>
struct all_children<std::tuple<C...>, P> : std::bool_constant<(all_leaves<C, P>::value && ...)> {};
template <class Children, template <class> class P>
struct any_child;
template <class... C, template <class> class P>
struct any_child<std::tuple<C...>, P> : std::bool_constant<(any_leaf<C, P>::value || ...)> {};
template <product_node T, template <class> class P>
struct all_leaves<T, P> : all_children<typename tree_node<T>::children, P> {};
template <product_node T, template <class> class P>
struct any_leaf<T, P> : any_child<typename tree_node<T>::children, P> {};
template <class T, template <class> class P>
inline constexpr bool all_leaves_v = all_leaves<std::remove_cvref_t<T>, P>::value;
template <class T, template <class> class P>
inline constexpr bool any_leaf_v = any_leaf<std::remove_cvref_t<T>, P>::value;

template <class T>
inline constexpr std::size_t leaf_count_v = tree_traits<std::remove_cvref_t<T>>::leaves;
/// The values of `T`: its leaves, a tensor counting once.
template <class T>
inline constexpr std::size_t value_count_v = tree_traits<std::remove_cvref_t<T>>::values;
/// The entries `T` takes in a flat array of `L`: one per element for numbers, one per value
/// for tracers (a traced tensor is one node, whatever its size).
template <class T, class L>
inline constexpr std::size_t slot_count_v = std::is_same_v<L, tracer> ? value_count_v<T> : leaf_count_v<T>;

/// The structure `T` with every leaf replaced by `L`.
template <class T, class L>
using rebind_t = typename tree_traits<std::remove_cvref_t<T>>::template rebind<L>;

/// Whether every leaf of `T` has type `L` (a batch of `L` counts).
template <class T, class L>
inline constexpr bool leaves_are_v = tree_traits<std::remove_cvref_t<T>>::template uniform<L>;

/// Whether `T` holds a runtime batch (a std::vector or std::span of numbers or structures).
template <class T>
inline constexpr bool has_batch_v = tree_traits<std::remove_cvref_t<T>>::has_batch;

/// Whether `T` holds an integer leaf.
template <class T>
inline constexpr bool has_integer_v = tree_traits<std::remove_cvref_t<T>>::has_integer;

/// Whether a tensor in `t` stands for a traced node (inside a function calx traces).
template <class T>
constexpr bool holds_traced_tensor(const T& t) {
  bool traced = false;
  for_each_traced_leaf(t, [&]<class X>(const X& leaf) {
    if constexpr (traced_whole<X>) traced = traced || tree_node<X>::traced(leaf).graph != nullptr;
  });
  return traced;
}

/// Whether a tensor among `a...` stands for a traced node: the one place calx asks. A
/// tensor's type is the same traced or not (a struct of tensors is its own traced form), so
/// where a call must choose between computing on numbers and recording a node (a loop, a
/// cond, a checkpoint, a transform inside a trace) it asks the values; traced values exist
/// only inside constant evaluation, so at run time the answer is no without a look.
template <class... A>
constexpr bool traced_tensor_among(const A&... a) {
  return std::is_constant_evaluated() && (holds_traced_tensor(a) || ...);
}

/// Writes the leaves of `t` to `out[0..]` depth-first, left to right; returns past the end.
/// Tracers: one entry per value (a traced tensor writes its tracer once; see `slot_count_v`).
template <class T, class L>
CALX_HOST_DEVICE constexpr L* flatten_into(const T& t, L* out) {
  if constexpr (std::is_same_v<L, tracer>) {
    for_each_traced_leaf(t, [&]<class X>(const X& leaf) {
      if constexpr (traced_whole<X>) {
        const tracer h = tree_node<X>::traced(leaf);
#ifndef __CUDA_ARCH__  // tracing happens in host compilation only (a transform of tensors vmapped over device spans)
        if (h.graph == nullptr) trace_error("calx: a tensor of numbers where traced values are expected");
#endif
        *out++ = h;
      } else {
        *out++ = static_cast<L>(leaf);
      }
    });
  } else {
#ifndef __CUDA_ARCH__  // tracing happens in host compilation only; trace_error is a host function
    if (traced_tensor_among(t))
      trace_error("calx: a transform was called inside a traced function on traced tensors only; calx "
                  "cannot tell it is traced (pass a traced scalar too, or apply the transform outside)");
#endif
    for_each_leaf(t, [&](const auto& leaf) { *out++ = static_cast<L>(leaf); });
  }
  return out;
}

/// The leaves of `a...` as one flat array of `L` (see `slot_count_v`).
template <class L, class... A>
CALX_HOST_DEVICE constexpr CALX_INLINE auto flatten_args(const A&... a) {
  std::array<L, (std::size_t{0} + ... + slot_count_v<A, L>)> flat{};
  L* p = flat.data();
  ((p = flatten_into(a, p)), ...);
  return flat;
}

/// Builds a `T` from leaves read from `in[0..]` in the order `flatten_into` writes them.
/// Tracers: a tensor reads one tracer holding a node of its size, or else (a Jacobian's
/// entries, a symbolic zero) one scalar per element.
template <class T, class L>
CALX_HOST_DEVICE constexpr T unflatten_from(const L*& in) {
  if constexpr (std::is_same_v<L, tracer>) {
    T t{};
    // Tracers exist only while tracing. Code that may trace is also compiled for numbers
    // (a tensor carry is traced or not by value), where this never runs; without the
    // return, g++ warns about that copy's array bounds.
    if (!std::is_constant_evaluated()) return t;
    for_each_traced_leaf(t, [&]<class X>(X& leaf) {
      if constexpr (traced_whole<X>) {
        if (in->graph != nullptr && in->graph->nodes[in->id].size() == static_cast<int>(tree_node<X>::extent)) {
          tree_node<X>::set_node(leaf, *in++);
        } else {
          tree_node<X>::set_traced(leaf, in);
          in += tree_node<X>::extent;
        }
      } else {
        leaf = static_cast<X>(*in++);
      }
    });
    return t;
  } else {
    return build_tree<T>([&]<class X>(const X&) { return static_cast<X>(*in++); });
  }
}

template <class T, class L, std::size_t N>
CALX_HOST_DEVICE constexpr CALX_INLINE T unflatten(const std::array<L, N>& a, std::size_t offset = 0) {
  const L* p = a.data() + offset;
  return unflatten_from<T>(p);
}

}  // namespace detail

CALX_END_NAMESPACE

#endif // CALX_TREE_HPP
