/// @file tree.hpp
/// @brief Argument and result structures ("pytrees"): float/double/tracer leaves inside
/// std::array, std::tuple and std::pair, nested freely. Transforms flatten them into the
/// program's flat inputs and rebuild results of the same shape.
#ifndef CALX_TREE_HPP
#define CALX_TREE_HPP

#include <calx/batched.hpp>
#include <calx/config.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

namespace detail {
/// Extra leaf types: calx/simd/batch.hpp adds xsimd batches of float and double.
template <class T>
struct is_extra_leaf : std::false_type {};
}  // namespace detail

/// A leaf of a structure: a float, a double, a traced value, or (with calx/simd/batch.hpp)
/// an xsimd batch of floats or doubles, which evaluates one sample per lane.
template <class T>
concept tree_leaf = std::is_floating_point_v<T> || std::same_as<T, tracer> || detail::is_extra_leaf<T>::value;

/// An integer leaf: an argument that is passed to the function (as a traced value, converted
/// to the program's precision) but never differentiated or batched, like JAX's static
/// arguments. It does not decide the program's precision.
template <class T>
concept integer_leaf = std::is_integral_v<T> && !std::same_as<T, bool>;

namespace detail {

/// Marks a batched input in the argument structures calx traces (the function itself
/// sees a `calx::tracer`).
struct batched_leaf {};

template <class T>
struct tree_traits {
  static constexpr bool valid = tree_leaf<T> || integer_leaf<T> || std::is_same_v<T, batched_leaf>;
  static constexpr bool has_batch = std::is_same_v<T, batched_leaf>;
  static constexpr bool has_integer = integer_leaf<T>;
  static constexpr std::size_t leaves = 1;
  template <class L>
  using rebind = L;
  /// The precision the leaves ask for: the first float/double leaf (void: none).
  using first_leaf = std::conditional_t<integer_leaf<T>, void, T>;
  template <class L>
  static constexpr bool uniform = std::is_same_v<T, L> || integer_leaf<T>;
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
template <class T>
struct batch_tree_traits {
  static constexpr bool valid = std::is_floating_point_v<T>;
  static constexpr bool has_batch = true;
  static constexpr bool has_integer = false;
  static constexpr std::size_t leaves = 1;
  template <class L>
  using rebind = std::conditional_t<std::is_same_v<L, tracer>, batched_leaf, batched<L>>;
  using first_leaf = T;
  template <class L>
  static constexpr bool uniform = std::is_same_v<T, L>;
};
template <class T, class A>
struct tree_traits<std::vector<T, A>> : batch_tree_traits<T> {};
template <class T>
struct tree_traits<std::span<T>> : batch_tree_traits<std::remove_const_t<T>> {};

template <class T, std::size_t N>
struct tree_traits<std::array<T, N>> {
  static constexpr bool valid = tree_traits<T>::valid;
  static constexpr bool has_batch = tree_traits<T>::has_batch;
  static constexpr bool has_integer = tree_traits<T>::has_integer;
  static constexpr std::size_t leaves = N * tree_traits<T>::leaves;
  template <class L>
  using rebind = std::array<typename tree_traits<T>::template rebind<L>, N>;
  using first_leaf = typename tree_traits<T>::first_leaf;
  template <class L>
  static constexpr bool uniform = tree_traits<T>::template uniform<L>;
};

template <class... T>
struct tree_traits<std::tuple<T...>> {
  static constexpr bool valid = (tree_traits<T>::valid && ...);
  static constexpr bool has_batch = (tree_traits<T>::has_batch || ...);
  static constexpr bool has_integer = (tree_traits<T>::has_integer || ...);
  static constexpr std::size_t leaves = (std::size_t{0} + ... + tree_traits<T>::leaves);
  template <class L>
  using rebind = std::tuple<typename tree_traits<T>::template rebind<L>...>;
  using first_leaf = typename first_non_void<typename tree_traits<T>::first_leaf...>::type;
  template <class L>
  static constexpr bool uniform = (tree_traits<T>::template uniform<L> && ...);
};

template <class A, class B>
struct tree_traits<std::pair<A, B>> {
  static constexpr bool valid = tree_traits<A>::valid && tree_traits<B>::valid;
  static constexpr bool has_batch = tree_traits<A>::has_batch || tree_traits<B>::has_batch;
  static constexpr bool has_integer = tree_traits<A>::has_integer || tree_traits<B>::has_integer;
  static constexpr std::size_t leaves = tree_traits<A>::leaves + tree_traits<B>::leaves;
  template <class L>
  using rebind = std::pair<typename tree_traits<A>::template rebind<L>, typename tree_traits<B>::template rebind<L>>;
  using first_leaf = typename first_non_void<typename tree_traits<A>::first_leaf, typename tree_traits<B>::first_leaf>::type;
  template <class L>
  static constexpr bool uniform = tree_traits<A>::template uniform<L> && tree_traits<B>::template uniform<L>;
};

template <class T>
inline constexpr std::size_t leaf_count_v = tree_traits<std::remove_cvref_t<T>>::leaves;

/// The structure `T` with every leaf replaced by `L`.
template <class T, class L>
using rebind_t = typename tree_traits<std::remove_cvref_t<T>>::template rebind<L>;

/// Whether every leaf of `T` has type `L` (a batch of `L` counts).
template <class T, class L>
inline constexpr bool leaves_are_v = tree_traits<std::remove_cvref_t<T>>::template uniform<L>;

/// Whether `T` holds a runtime batch (a std::vector or std::span of floats or doubles).
template <class T>
inline constexpr bool has_batch_v = tree_traits<std::remove_cvref_t<T>>::has_batch;

/// Whether `T` holds an integer leaf.
template <class T>
inline constexpr bool has_integer_v = tree_traits<std::remove_cvref_t<T>>::has_integer;

/// Writes the leaves of `t` to `out[0..]` depth-first, left to right; returns past the end.
template <class T, class L>
CALX_HOST_DEVICE constexpr L* flatten_into(const T& t, L* out) {
  if constexpr (tree_leaf<T> || integer_leaf<T>) {
    *out = static_cast<L>(t);
    return out + 1;
  } else {
    std::apply([&](const auto&... e) { ((out = flatten_into(e, out)), ...); }, t);
    return out;
  }
}

/// Builds a `T` from leaves read from `in[0..]` in the order `flatten_into` writes them.
template <class T, class L>
CALX_HOST_DEVICE constexpr T unflatten_from(const L*& in) {
  if constexpr (tree_leaf<T>) {
    return static_cast<T>(*in++);
  } else if constexpr (requires { std::tuple_size<T>::value; } && !requires { typename T::first_type; } &&
                       requires(T t) { t[0]; }) {
    T t{};
    for (auto& e : t) e = unflatten_from<std::remove_cvref_t<decltype(e)>>(in);
    return t;
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return T{unflatten_from<std::tuple_element_t<I, T>>(in)...};
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
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
