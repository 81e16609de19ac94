/// @file tree_hana.hpp
/// @brief Boost.Hana structs as structures of calx's tree library: a type defined with
/// `BOOST_HANA_DEFINE_STRUCT` (or `BOOST_HANA_ADAPT_STRUCT`) is a product whose children are
/// its members, in declaration order.
///
/// To be traced, a struct must be able to hold traced values: a class template over its
/// number type, `template <class T> struct params { BOOST_HANA_DEFINE_STRUCT(params, (T, a),
/// (std::array<T, 3>, b)); };`, whose `params<calx::tracer>` has the members of
/// `params<double>` with tracer leaves. The gradient of a `params<double>` is a
/// `params<double>`. A struct of fixed `float`/`double` members cannot hold traced values and
/// is refused as an argument with a message.
#ifndef CALX_TREE_HANA_HPP
#define CALX_TREE_HANA_HPP

#include <calx/tree.hpp>

#include <boost/hana/accessors.hpp>
#include <boost/hana/at.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/define_struct.hpp>  // so that a user of calx.hpp can define structs
#include <boost/hana/length.hpp>
#include <boost/hana/second.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Member `I` of Hana struct `S` (const or not).
template <std::size_t I, class S>
constexpr auto& hana_member(S& s) {
  return boost::hana::second(boost::hana::at_c<I>(boost::hana::accessors<std::remove_const_t<S>>()))(s);
}

template <class T>
constexpr std::size_t hana_member_count() {
  return decltype(boost::hana::length(boost::hana::accessors<T>()))::value;
}

template <class T, class I = std::make_index_sequence<hana_member_count<T>()>>
struct hana_members;
template <class T, std::size_t... I>
struct hana_members<T, std::index_sequence<I...>> {
  using type = std::tuple<std::remove_cvref_t<decltype(hana_member<I>(std::declval<T&>()))>...>;
};

/// `T` where `F` changes none of its members' types, else `not_rebindable<T>`.
template <class T, template <class> class F, class Members = typename hana_members<T>::type>
struct hana_fixed_rebind;
template <class T, template <class> class F, class... C>
struct hana_fixed_rebind<T, F, std::tuple<C...>> {
  using type = std::conditional_t<(std::is_same_v<F<C>, C> && ...), T, not_rebindable<T>>;
};

/// Whether the members of `R` are those of `T` with `F` applied.
template <class T, class R, template <class> class F, class CT = typename hana_members<T>::type,
          class CR = typename hana_members<R>::type>
struct hana_members_follow : std::false_type {};
template <class T, class R, template <class> class F, class... C, class... D>
  requires(sizeof...(C) == sizeof...(D))
struct hana_members_follow<T, R, F, std::tuple<C...>, std::tuple<D...>>
    : std::bool_constant<(std::is_same_v<F<C>, D> && ...)> {};

/// `T` with `F` applied to its members: `Tmpl<F<X>>` for `T = Tmpl<X>` when that struct's
/// members are those of `T` with `F` applied (they are spelled in terms of X); else as
/// `hana_fixed_rebind`.
template <class T, template <class> class F>
struct hana_rebind : hana_fixed_rebind<T, F> {};
template <template <class> class Tmpl, class X, template <class> class F>
  requires boost::hana::Struct<Tmpl<F<X>>>::value
struct hana_rebind<Tmpl<X>, F> {
  using type = std::conditional_t<hana_members_follow<Tmpl<X>, Tmpl<F<X>>, F>::value, Tmpl<F<X>>,
                                  typename hana_fixed_rebind<Tmpl<X>, F>::type>;
};

}  // namespace detail

template <class T>
  requires boost::hana::Struct<T>::value
struct tree_node<T> {
  using children = typename detail::hana_members<T>::type;
  template <std::size_t I, class S>
  static constexpr auto& get(S& t) {
    return detail::hana_member<I>(t);
  }
  template <template <class> class F>
  using with = typename detail::hana_rebind<T, F>::type;
};

CALX_END_NAMESPACE

#endif  // CALX_TREE_HANA_HPP
