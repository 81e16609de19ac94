/// @file detail/type_list.hpp
/// @brief A minimal type list with O(1)-depth indexing (no recursive class templates).
#ifndef CALX_DETAIL_TYPE_LIST_HPP
#define CALX_DETAIL_TYPE_LIST_HPP

#include <calx/detail/internal_header_check.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class... T>
struct type_list {
  static constexpr std::size_t size = sizeof...(T);
};

template <class T>
struct type_identity {
  using type = T;
};

// Indexing through overload resolution on a base list: one instantiation per list.
template <std::size_t I, class T>
struct indexed {
  using type = T;
};
template <class Seq, class... T>
struct indexer;
template <std::size_t... I, class... T>
struct indexer<std::index_sequence<I...>, T...> : indexed<I, T>... {};

template <std::size_t I, class T>
indexed<I, T> select_index(const indexed<I, T>&);
template <class T, std::size_t I>
indexed<I, T> select_type(const indexed<I, T>&);

template <class List, std::size_t I>
struct at_impl;
template <class... T, std::size_t I>
struct at_impl<type_list<T...>, I> {
  using type = typename decltype(select_index<I>(
      indexer<std::index_sequence_for<T...>, T...>{}))::type;
};
template <class List, std::size_t I>
using at_t = typename at_impl<List, I>::type;

template <class List, class X>
struct index_of_impl;
template <class... T, class X>
struct index_of_impl<type_list<T...>, X> {
  template <std::size_t I>
  static constexpr std::size_t get(indexed<I, X>) {
    return I;
  }
  static constexpr std::size_t value = get(indexer<std::index_sequence_for<T...>, T...>{});
};
template <class List, class X>
inline constexpr std::size_t index_of_v = index_of_impl<List, X>::value;

/// The index of `X` in `List`, or -1 when it is not there.
template <class List, class X>
struct find_impl;
template <class... T, class X>
struct find_impl<type_list<T...>, X> {
  template <std::size_t I>
  static constexpr int get(indexed<I, X>) {
    return static_cast<int>(I);
  }
  static constexpr int get(...) { return -1; }
  static constexpr int value = get(indexer<std::index_sequence_for<T...>, T...>{});
};
template <class List, class X>
inline constexpr int find_v = find_impl<List, X>::value;

template <class... T>
inline constexpr bool always_false_v = false;

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_TYPE_LIST_HPP
