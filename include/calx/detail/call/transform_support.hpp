/// @file detail/call/transform_support.hpp
/// @brief What every transform does with a user's call: trace `F` for the argument
/// structures, flatten the arguments, pick leaves by argnums, and rebuild results.
#ifndef CALX_DETAIL_CALL_TRANSFORM_SUPPORT_HPP
#define CALX_DETAIL_CALL_TRANSFORM_SUPPORT_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/argnums.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/call/run.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/passes/sources.hpp>
#include <calx/detail/type_list.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Stops compilation naming the op that program `Source`'s passes reached without the rule
/// they needed: the error is a call, in a constant expression, to the function
/// `forward_mode_needs_op_traits_jvp_or_decomposition_for<Op>` (or its reverse-mode
/// twin), whose name says the problem and whose template argument is the op.
template <class Source>
constexpr int name_the_missing_rule() {
  graph g;
  int id[1] = {0};
  const op_info op = materialized<Source>::missing_rule();
  if (materialized<Source>::missing_in_reverse)
    op.vjp(g, id, id, id, id);
  else
    op.jvp(g, id, id, id, id);
  return 0;
}

/// Whether the passes that made `Source` found every rule they needed, and no rule refused.
template <class Source>
constexpr bool rules_found() {
  return materialized<Source>::missing_rule == nullptr && materialized<Source>::refusal == nullptr;
}

/// The one error for a program whose passes missed a rule (see name_the_missing_rule) or
/// met a refusal (see graph::refuse); called where rules_found is false, before the caller
/// returns an invalid_program.
template <class Source>
constexpr void report_missing_rule() {
  if constexpr (materialized<Source>::refusal != nullptr) {
    [[maybe_unused]] constexpr int refused = name_the_refusal<Source>();
  } else {
    [[maybe_unused]] constexpr int op_without_the_rule = name_the_missing_rule<Source>();
  }
}

/// The flat position of each of the structures `A...` laid end to end, and their total.
template <class... A>
inline constexpr std::array<std::size_t, sizeof...(A) + 1> leaf_offsets = [] {
  std::array<std::size_t, sizeof...(A) + 1> o{};
  std::size_t counts[] = {leaf_count_v<A>..., 0};
  for (std::size_t i = 0; i < sizeof...(A); ++i) o[i + 1] = o[i] + counts[i];
  return o;
}();

/// `F` called with arguments `A...`: its trace, leaf type and flat layout.
template <class F, class... A>
struct traced_call {
  using leaf = common_leaf_t<A...>;
  using source = trace_source<F, rebind_t<A, tracer>...>;
  using output_tree = typename source::output_tree;
  static constexpr std::size_t inputs = (std::size_t{0} + ... + leaf_count_v<A>);
  static constexpr std::size_t outputs = leaf_count_v<output_tree>;
  static constexpr const auto& offsets = leaf_offsets<A...>;
};

/// Whether `T...` matches `A...` one for one in structure, with every leaf of `T` an `L`
/// (tangents and cotangents have the primals' structure and precision).
template <class L, class... A>
struct matches {
  template <class... T>
  static constexpr bool structure_of() {
    if constexpr (sizeof...(T) != sizeof...(A))
      return false;
    else
      return ((std::is_same_v<rebind_t<T, L>, rebind_t<A, L>> && leaves_are_v<T, L>) && ...);
  }
};

template <class L, std::size_t N, std::size_t M>
constexpr std::array<L, N + M> concat(const std::array<L, N>& a, const std::array<L, M>& b) {
  std::array<L, N + M> r{};
  for (std::size_t i = 0; i < N; ++i) r[i] = a[i];
  for (std::size_t i = 0; i < M; ++i) r[N + i] = b[i];
  return r;
}

/// argnums checked and normalised (negative counts from the end).
template <class Argnums, std::size_t N>
struct argnums_info;
template <int... I, std::size_t N>
struct argnums_info<argnums_t<I...>, N> {
  static constexpr bool nonempty = sizeof...(I) > 0;
  static constexpr bool in_range = ((I < static_cast<int>(N) && I >= -static_cast<int>(N)) && ...);
  static constexpr std::array<std::size_t, sizeof...(I)> picks = {
      static_cast<std::size_t>(I < 0 ? I + static_cast<int>(N) : I)...};
  static constexpr bool unique = [] {
    for (std::size_t i = 0; i < picks.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (picks[i] == picks[j]) return false;
    return true;
  }();
  static constexpr bool ok = nonempty && in_range && unique;
};

/// The most axes of any leaf of `T` (a tensor's rank; 0 for numbers).
template <class T>
constexpr int leaf_rank() {
  if constexpr (requires { tree_node<T>::dims.rank; })
    return tree_node<T>::dims.rank;
  else
    return 0;
}
template <int K>
struct rank_at_least {
  template <class T>
  using test = std::bool_constant<(leaf_rank<T>() >= K)>;
};
template <class T>
constexpr int max_leaf_rank() {
  int r = 0;
  [&]<int... K>(std::integer_sequence<int, K...>) {
    ((r = any_leaf_v<T, rank_at_least<K + 1>::template test> ? K + 1 : r), ...);
  }(std::make_integer_sequence<int, max_rank>{});
  return r;
}
/// Whether a Jacobian of output `V` with respect to the arguments `Info` picks of `A...`
/// fits calx::tensor's axes (the output's, then the argument's).
template <class V, class Info, class... A>
constexpr bool jacobian_fits() {
  if constexpr (!Info::ok) {
    return true;  // the argnums message comes first
  } else {
    constexpr int ranks[] = {max_leaf_rank<A>()..., 0};
    int in = 0;
    for (std::size_t p : Info::picks) in = ranks[p] > in ? ranks[p] : in;
    return max_leaf_rank<V>() + in <= max_rank;
  }
}

#define CALX_CHECK_ARGNUMS(api, info)                                      \
  static_assert(info::nonempty, CALX_MSG_ARGNUMS_EMPTY(api));              \
  static_assert(!info::nonempty || info::in_range, CALX_MSG_ARGNUMS_RANGE(api)); \
  static_assert(!info::nonempty || !info::in_range || info::unique, CALX_MSG_ARGNUMS_UNIQUE(api))

/// The flat input positions of the picked arguments, one range each, in argnums order.
template <class Call, class Info>
struct wrt_spec {
  static constexpr auto ranges = [] {
    std::array<flat_range, Info::picks.size()> a{};
    std::size_t n = 0;
    for (std::size_t k : Info::picks) a[n++] = flat_range{Call::offsets[k], Call::offsets[k + 1] - Call::offsets[k]};
    return a;
  }();
};

template <std::size_t K, class... A>
using arg_at_t = std::remove_cvref_t<std::tuple_element_t<K, std::tuple<A...>>>;

/// Whether argnums `Info` (checked) names an argument with an integer leaf.
template <class Info, class... A>
constexpr bool picks_integers() {
  if constexpr (!Info::ok) {
    return false;
  } else {
    constexpr bool ints[] = {has_integer_v<A>..., false};
    for (std::size_t k : Info::picks)
      if (ints[k]) return true;
    return false;
  }
}

/// The arguments that jvp and linearize take tangents for: every one (`Argnums` is void), or
/// those `calx::argnums` picks, in its order (the others are data: no tangent, no zeros).
template <class Argnums, class... A>
struct tangent_args {
  using info = argnums_info<Argnums, sizeof...(A)>;
  static constexpr bool integers = picks_integers<info, A...>();
  template <std::size_t... P>
  static auto pick(std::index_sequence<P...>) -> type_list<arg_at_t<info::picks[P], A...>...>;
  struct lazy_types {
    using type = decltype(pick(std::make_index_sequence<info::picks.size()>{}));
  };
  /// The tangents' argument types (none when argnums is invalid, which is reported).
  using types = typename std::conditional_t<info::ok, lazy_types, type_identity<type_list<>>>::type;
  /// The flat input positions of those arguments in call `C`.
  template <class C>
  using spec = wrt_spec<C, info>;
};
template <class... A>
struct tangent_args<void, A...> {
  struct info {
    static constexpr bool ok = true;
  };
  static constexpr bool integers = (has_integer_v<A> || ...);
  using types = type_list<A...>;
  template <class C>
  using spec = range_spec<0, C::inputs>;
};

/// `matches<L, A...>` over the types of a `type_list`.
template <class L, class List>
struct matches_list;
template <class L, class... A>
struct matches_list<L, type_list<A...>> : matches<L, A...> {};

/// What grad returns for argnums `Info` on arguments `A...` with leaves `L`: the picked
/// argument's structure, or a std::tuple of them for several argnums.
template <class Info, class L, class... A>
struct grad_result {
  template <std::size_t... P>
  static auto pick(std::index_sequence<P...>)
      -> std::tuple<rebind_t<arg_at_t<Info::picks[P], A...>, L>...>;
  using many = decltype(pick(std::make_index_sequence<Info::picks.size()>{}));
  using type = std::conditional_t<Info::picks.size() == 1, std::tuple_element_t<0, many>, many>;
};

template <class T>
inline constexpr bool is_tuple_v = false;
template <class... T>
inline constexpr bool is_tuple_v<std::tuple<T...>> = true;

template <class O>
struct is_argnums : std::false_type {};
template <int... I>
struct is_argnums<argnums_t<I...>> : std::true_type {};

template <class... O>
struct first_argnums {
  using type = argnums_t<0>;  // JAX's default: differentiate the first argument
};
template <class T, class... R>
struct first_argnums<T, R...> : std::conditional_t<is_argnums<T>::value, type_identity<T>, first_argnums<R...>> {};

/// The first of `O...` satisfying `Pred`, else `Default`.
template <template <class> class Pred, class Default, class... O>
struct first_of {
  using type = Default;
};
template <template <class> class Pred, class Default, class T, class... R>
struct first_of<Pred, Default, T, R...>
    : std::conditional_t<Pred<T>::value, type_identity<T>, first_of<Pred, Default, R...>> {};

/// Options of grad-like transforms: at most one `calx::argnums<...>`, and `calx::has_aux`.
template <class... Opts>
struct transform_options {
  using argnums = typename first_argnums<Opts...>::type;
  /// What jvp and linearize take tangents for: the given argnums, else void (every argument).
  using tangent_argnums = std::conditional_t<(is_argnums<Opts>::value || ...), argnums, void>;
  static constexpr bool aux = (std::is_same_v<Opts, has_aux_t> || ...);
  static constexpr bool valid = ((std::is_same_v<Opts, has_aux_t> || is_argnums<Opts>::value) && ...) &&
                                (std::size_t{0} + ... + std::size_t{is_argnums<Opts>::value}) <= 1;
};

/// The value part of a traced output: the whole output, or `first` with has_aux.
template <class Out, bool Aux>
struct split_output {
  static constexpr bool valid = true;
  using value = Out;
  using aux = std::tuple<>;
};
template <class Out>
struct split_output<Out, true> {
  static constexpr bool valid = false;
  using value = Out;
  using aux = std::tuple<>;
};
template <class V, class X>
struct split_output<std::pair<V, X>, true> {
  static constexpr bool valid = true;
  using value = V;
  using aux = X;
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_TRANSFORM_SUPPORT_HPP
