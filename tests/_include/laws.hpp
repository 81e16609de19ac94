/// @file tests/_include/laws.hpp
/// @brief The laws of differentiation that every primitive, and every stateless scalar
/// function built from them, must obey under calx's transforms; and the table of
/// primitives they are instantiated over. A test file picks rows of the table and calls
/// the laws; it never writes an op's derivative by hand (STYLE point 22).
///
/// The laws (spec §3.1 and §6, B2-B5, B9, C5, C6), each checked in float and in double:
///  - `check_jvp`      (a) jvp against central finite differences in a random direction;
///  - `check_vjp`      (b) vjp against finite differences, dot-product form:
///                         ⟨t, vjp(u)⟩ = ⟨fd_jvp(t), u⟩;
///  - `check_adjoint`  (c) ⟨u, J t⟩ = ⟨Jᵀ u, t⟩ from calx's two modes, no finite differences;
///  - `check_jacobians`(d) jacfwd == jacrev (and grad, value_and_grad == vjp seeded with 1);
///  - `check_hessian`  (e) hessian symmetric, == jacfwd(jacrev) (the same type), ≈
///                         jacrev(jacfwd), jacrev(jacrev), jacfwd(jacfwd), and H·t ≈ finite
///                         differences of grad;
///  - `check_grads`    (f) JAX's check_grads: order 1 is (a)+(b)+(c); order 2 repeats order 1
///                         on the jvp map (x, t) ↦ jvp(f, x, t).second (fwd-of-fwd,
///                         rev-of-fwd) and on the vjp map x ↦ vjp(f, x).second(f(x))
///                         (fwd-of-rev, rev-of-rev);
///  - `check_linear`   (g) linearize(f, x).second(t) == jvp(f, x, t).second, and a pullback
///                         called twice (and after another cotangent) gives identical
///                         results; and jvp is linear in the tangent (STYLE point 22).
///
/// `all_laws<T>(row)` runs them all at `points_per_law` random points of a row of `rows`,
/// the table of primitives at the end of this file; grad.laws.<family>.cpp instantiate it
/// per family of ops. The laws also take any other function (tests/composition.cpp style):
/// `check_grads<2, double, F, F>("name", x, rng)`.
///
/// Functions under test are stateless callables of N scalar arguments returning a scalar,
/// or a std::tuple / std::pair / std::array of scalars. Every transform is called with
/// `calx::argnums<0, ..., N-1>`, so binary ops are differentiated in both arguments.
///
/// Finite differences are always evaluated in double, at the inputs and directions
/// rounded to the precision under test, so a float transform is compared with a reference
/// whose own error (<~ 2e-6 relative, see `fd_tolerance`) is below the tolerance.
#ifndef CALX_TESTS_LAWS_HPP
#define CALX_TESTS_LAWS_HPP

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace calx_test::laws {

// ======================================================================================
// Tolerances. A check passes when |got - want| <= atol + rtol * scale, where `scale` is
// |want| for elementwise checks and the sum of the magnitudes of the terms for inner
// products (an inner product may cancel; its rounding error is bounded by that sum).
// ======================================================================================

struct tolerance {
  double rtol, atol;
};

/// Central differences with this step (JAX's check_grads default EPS). In double with
/// |t| <~ 4 the truncation error eps² |t|³ |f⁽³⁾| / 6 is <~ 1e-7 relative on the domains
/// below (they keep |f⁽³⁾| <~ 100 (1 + |f'|)), and the rounding error ulp(f)/eps <~ 1e-12 |f|.
inline constexpr double fd_eps = 1e-4;

/// T-FD-dir, the tier of every finite-difference law (JAX: 1e-5 for float64, 2e-3 for
/// float32, both atol and rtol, scaled by the number of elements; we do not scale, our
/// outputs have at most 3 elements).
///  - double: 1e-5, JAX's. The reference's own error is the truncation error above: on
///    the op table's domains <~ 1e-7 for first derivatives and <~ 5e-7 for the second-order
///    maps (measured worst: 3e-7), but on composite polynomials (grad.laws.composite.cpp:
///    the banana's fwd map is quartic, with |t|³ up to ~30) it reaches 2e-6 (measured worst
///    1.9e-6, 0.19 of this bound), so 1e-5 is as tight as eps = 1e-4 allows with margin.
///  - float: 1e-5, 200x tighter than JAX. JAX takes the differences in float32, where
///    their rounding error ulp(f)/eps ~ 1e-3 forces 2e-3; ours are taken in double at the
///    float-rounded inputs, so what is left is calx's own float evaluation of the
///    derivative program (a few ulp, 6e-8, times its condition number, <~ 30 here; measured
///    worst on the op table 8.4e-7, ~14 ulp) plus the reference's truncation error above
///    (measured worst overall 1.8e-6, 0.18 of this bound).
template <class T>
inline constexpr tolerance fd_tolerance = tolerance{1e-5, 1e-5};

/// T-exact: the same value computed by two calx programs (two transform orders, two modes,
/// the two sides of the adjoint identity, a linear map and its jvp), both in precision T.
/// The spec's T-exact is (rtol 1e-7, atol 1e-7) in double and (1.3e-6, 1e-5) in float
/// (torch's defaults). Each program is a few dozen correctly rounded operations, so the
/// two results differ by a few ulp of the largest intermediate; the intermediates are at
/// most ~100x the result here (cancellation in the second-order maps of pow, atan2, div).
///  - double: (1e-12, 1e-13), ~4500 ulp, 10^5 tighter than the spec; measured worst:
///    ~8 ulp (2e-15 relative).
///  - float: (1.3e-6, 1e-6), ~22 ulp: the spec's rtol, with atol tightened from 1e-5 to
///    1e-6 because no compared value here is a cancelled sum of terms above ~10; measured
///    worst: ~8 ulp (0.4 of this bound: the adjoint identity of the second-order maps).
/// Where the two programs are the same program (hessian and jacfwd(jacrev), linearize's
/// value and jvp's, a pullback called twice) the laws ask for identical bits instead.
template <class T>
inline constexpr tolerance exact_tolerance = sizeof(T) == 8 ? tolerance{1e-12, 1e-13} : tolerance{1.3e-6, 1e-6};

// ======================================================================================
// Observed errors: run the tests with CALX_LAWS_STATS=1 in the environment to print, per
// law and precision, the largest |got - want| / (atol + rtol * scale) seen (1 = at the
// bound). This is how the tolerances above were chosen.
// ======================================================================================

struct error_stats {
  struct worst_case {
    double ratio = 0;
    std::string where;
  };
  std::map<std::string, worst_case> worst;
  std::string subject;  // the law, function and point being checked (see `where_`)
  ~error_stats() {
    if (std::getenv("CALX_LAWS_STATS") == nullptr) return;
    for (const auto& [law, w] : worst)
      std::fprintf(stderr, "calx laws: %-48s worst error / bound = %-9.3g %s\n", law.c_str(), w.ratio, w.where.c_str());
  }
  void note(const std::string& law, double ratio) {
    worst_case& w = worst[law];
    if (!(ratio <= w.ratio)) w = {ratio, subject};  // NaN sticks
  }
};
inline error_stats& stats() {
  static error_stats s;
  return s;
}

template <class T>
constexpr const char* type_name() {
  return sizeof(T) == 8 ? "double" : "float";
}

/// One comparison, one Catch assertion, with the values printed on failure.
inline void check_close(const std::string& law, double got, double want, double scale, tolerance tol) {
  const double bound = tol.atol + tol.rtol * scale;
  const double diff = std::abs(got - want);
  stats().note(law, diff / bound);
  INFO(law << ": got " << text(got) << ", want " << text(want) << ", |diff| " << diff << ", bound " << bound);
  CHECK(diff <= bound);
}
inline void check_close(const std::string& law, double got, double want, tolerance tol) {
  check_close(law, got, want, std::abs(want), tol);
}

/// Bitwise equality (NaN equals NaN, signed zeros distinguished).
inline void check_same(const std::string& law, double got, double want) {
  INFO(law << ": got " << text(got) << ", want " << text(want) << " (must be identical)");
  CHECK(same_value(got, want));
}

// ======================================================================================
// Deterministic random numbers: splitmix64 with hand-written uniform and Box-Muller
// normal draws, so every standard library gives the same points (the <random>
// distributions are implementation-defined).
// ======================================================================================

class random {
 public:
  explicit random(std::uint64_t seed) : state_(seed) {}
  static random for_name(const char* name, std::uint64_t salt) {
    std::uint64_t h = 1469598103934665603ull;
    for (const char* p = name; *p != '\0'; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
    return random(h ^ (salt * 0x9E3779B97F4A7C15ull));
  }
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double normal() {  // standard normal, as JAX's rand_like
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::uint64_t state_;
};

// ======================================================================================
// Structures of plain numbers (scalars in std::tuple / std::pair / std::array), flat.
// ======================================================================================

template <class S>
constexpr std::size_t count_leaves() {
  if constexpr (std::is_arithmetic_v<S>)
    return 1;
  else
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::size_t{0} + ... + count_leaves<std::remove_cvref_t<std::tuple_element_t<I, S>>>());
    }(std::make_index_sequence<std::tuple_size_v<S>>{});
}
template <class S>
inline constexpr std::size_t leaves_v = count_leaves<std::remove_cvref_t<S>>();

template <class L, class S>
void flatten_into(const S& s, L*& out) {
  if constexpr (std::is_arithmetic_v<S>)
    *out++ = static_cast<L>(s);
  else
    std::apply([&](const auto&... e) { (flatten_into(e, out), ...); }, s);
}
template <class L, class S>
std::array<L, leaves_v<S>> flatten(const S& s) {
  std::array<L, leaves_v<S>> a{};
  L* p = a.data();
  flatten_into(s, p);
  return a;
}
template <class S, class L>
S unflatten_from(const L*& in) {
  if constexpr (std::is_arithmetic_v<S>)
    return static_cast<S>(*in++);
  else
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return S{unflatten_from<std::remove_cvref_t<std::tuple_element_t<I, S>>>(in)...};
    }(std::make_index_sequence<std::tuple_size_v<S>>{});
}
template <class S, class L, std::size_t N>
S unflatten(const std::array<L, N>& a) {
  const L* p = a.data();
  return unflatten_from<S>(p);
}

/// The structure `S` with every leaf of type `L`.
template <class S, class L>
struct rebind_leaves {
  using type = L;
};
template <class... E, class L>
struct rebind_leaves<std::tuple<E...>, L> {
  using type = std::tuple<typename rebind_leaves<E, L>::type...>;
};
template <class A, class B, class L>
struct rebind_leaves<std::pair<A, B>, L> {
  using type = std::pair<typename rebind_leaves<A, L>::type, typename rebind_leaves<B, L>::type>;
};
template <class E, std::size_t N, class L>
struct rebind_leaves<std::array<E, N>, L> {
  using type = std::array<typename rebind_leaves<E, L>::type, N>;
};
template <class S, class L>
using rebind_leaves_t = typename rebind_leaves<std::remove_cvref_t<S>, L>::type;

template <class To, class From, std::size_t N>
std::array<To, N> cast(const std::array<From, N>& a) {
  std::array<To, N> r{};
  for (std::size_t i = 0; i < N; ++i) r[i] = static_cast<To>(a[i]);
  return r;
}

// ======================================================================================
// A function under test, called and transformed on flat arrays.
// ======================================================================================

/// `calx::argnums<0, ..., N-1>`.
template <std::size_t N>
inline constexpr auto all_argnums = []<std::size_t... I>(std::index_sequence<I...>) {
  return calx::argnums<static_cast<int>(I)...>;
}(std::make_index_sequence<N>{});

template <class F, std::size_t N>
using output_t = std::remove_cvref_t<decltype(std::apply(F{}, std::array<double, N>{}))>;
template <class F, std::size_t N>
inline constexpr std::size_t outputs_v = leaves_v<output_t<F, N>>;

template <class L, class F, class T, std::size_t N>
auto value_flat(const std::array<T, N>& x) {
  return flatten<L>(std::apply(F{}, x));
}

template <class F, class T, std::size_t N>
auto jvp_flat(const std::array<T, N>& x, const std::array<T, N>& t) {
  const auto [y, ty] = calx::jvp(F{}, std::tuple_cat(x), std::tuple_cat(t));
  return std::pair{flatten<T>(y), flatten<T>(ty)};
}

/// The pullback of F at x (and the value).
template <class F, class T, std::size_t N>
auto vjp_at(const std::array<T, N>& x) {
  return std::apply([](const auto&... a) { return calx::vjp(F{}, a...); }, x);
}

/// The pullback applied to the flat cotangent `u`, given the output's structure and the
/// precision of the primals (as JAX, calx wants the cotangent in the output's precision).
template <class F, class T, std::size_t N, std::size_t M>
std::array<T, N> pull(const auto& pb, const std::array<T, M>& u) {
  return flatten<T>(pb(unflatten<rebind_leaves_t<output_t<F, N>, T>>(u)));
}

/// `transform(F, argnums<0..N-1>)(x...)`, flattened (Jacobians are output-major).
template <class T, class Transformed, std::size_t N>
auto apply_flat(const Transformed& tf, const std::array<T, N>& x) {
  return flatten<T>(std::apply(tf, x));
}

template <class Fd, std::size_t N>
auto fd_jvp(const std::array<double, N>& x, const std::array<double, N>& t) {
  std::array<double, N> xp{}, xm{};
  for (std::size_t i = 0; i < N; ++i) {
    xp[i] = x[i] + fd_eps * t[i];
    xm[i] = x[i] - fd_eps * t[i];
  }
  auto fp = value_flat<double, Fd>(xp);
  const auto fm = value_flat<double, Fd>(xm);
  for (std::size_t o = 0; o < fp.size(); ++o) fp[o] = (fp[o] - fm[o]) * (0.5 / fd_eps);
  return fp;
}

/// The law's name as reported: "jvp-fd[sin](double) at x=(...)".
template <class T, std::size_t N>
std::string where_(const std::string& law, const std::string& name, const std::array<T, N>& x) {
  std::string s = law + "[" + name + "](" + type_name<T>() + ") at (";
  for (std::size_t i = 0; i < N; ++i) s += (i ? ", " : "") + text(x[i]);
  s += ")";
  stats().subject = s;
  return s;
}
template <class T>
std::string law_key(const std::string& law) {
  return law + " (" + type_name<T>() + ")";
}

// ======================================================================================
// The first-order laws. `F` is the function, `Fd` the function whose finite differences
// give F's derivative (F itself except for stop_gradient, whose derivative is 0 by
// definition while its values are the identity's).
// ======================================================================================

/// (a) jvp against central differences in a random direction; the primal against F.
template <class T, class F, class Fd, std::size_t N>
void check_jvp(const std::string& name, const std::array<T, N>& x, random& rng) {
  std::array<T, N> t{};
  for (auto& e : t) e = static_cast<T>(rng.normal());
  const auto [y, ty] = jvp_flat<F>(x, t);
  const auto want_y = value_flat<T, F>(x);
  const auto want_t = fd_jvp<Fd>(cast<double>(x), cast<double>(t));
  INFO(where_("jvp", name, x));
  for (std::size_t o = 0; o < y.size(); ++o) {
    check_close(law_key<T>("jvp primal == f"), y[o], want_y[o], exact_tolerance<T>);
    check_close(law_key<T>("jvp tangent ~ finite differences"), ty[o], want_t[o], fd_tolerance<T>);
  }
}

/// (b) ⟨t, vjp(u)⟩ against ⟨fd_jvp(t), u⟩.
template <class T, class F, class Fd, std::size_t N>
void check_vjp(const std::string& name, const std::array<T, N>& x, random& rng) {
  constexpr std::size_t M = outputs_v<F, N>;
  std::array<T, N> t{};
  std::array<T, M> u{};
  for (auto& e : t) e = static_cast<T>(rng.normal());
  for (auto& e : u) e = static_cast<T>(rng.normal());
  const auto [y, pb] = vjp_at<F>(x);
  const auto ct = pull<F, T, N>(pb, u);
  const auto fd = fd_jvp<Fd>(cast<double>(x), cast<double>(t));
  double lhs = 0, rhs = 0, scale = 0;
  for (std::size_t k = 0; k < N; ++k) lhs += static_cast<double>(t[k]) * static_cast<double>(ct[k]);
  for (std::size_t o = 0; o < M; ++o) {
    rhs += fd[o] * static_cast<double>(u[o]);
    scale += std::abs(fd[o] * static_cast<double>(u[o]));
  }
  INFO(where_("vjp", name, x));
  const auto yf = flatten<T>(y);
  const auto want_y = value_flat<T, F>(x);
  for (std::size_t o = 0; o < M; ++o) check_close(law_key<T>("vjp primal == f"), yf[o], want_y[o], exact_tolerance<T>);
  check_close(law_key<T>("<t, vjp(u)> ~ <fd(t), u>"), lhs, rhs, scale, fd_tolerance<T>);
}

/// (c) ⟨u, J t⟩ = ⟨Jᵀ u, t⟩, both from calx in precision T.
template <class T, class F, std::size_t N>
void check_adjoint(const std::string& name, const std::array<T, N>& x, random& rng) {
  constexpr std::size_t M = outputs_v<F, N>;
  std::array<T, N> t{};
  std::array<T, M> u{};
  for (auto& e : t) e = static_cast<T>(rng.normal());
  for (auto& e : u) e = static_cast<T>(rng.normal());
  const auto jt = jvp_flat<F>(x, t).second;
  const auto [y, pb] = vjp_at<F>(x);
  const auto ju = pull<F, T, N>(pb, u);
  double lhs = 0, rhs = 0, scale = 0;
  for (std::size_t o = 0; o < M; ++o) {
    lhs += static_cast<double>(u[o]) * static_cast<double>(jt[o]);
    scale += std::abs(static_cast<double>(u[o]) * static_cast<double>(jt[o]));
  }
  for (std::size_t k = 0; k < N; ++k) rhs += static_cast<double>(ju[k]) * static_cast<double>(t[k]);
  INFO(where_("adjoint", name, x));
  check_close(law_key<T>("<u, J t> == <J^T u, t>"), lhs, rhs, scale, exact_tolerance<T>);
}

/// (a) + (b) + (c): one check_grads step of order 1.
template <class T, class F, class Fd, std::size_t N>
void first_order(const std::string& name, const std::array<T, N>& x, random& rng) {
  check_jvp<T, F, Fd>(name, x, rng);
  check_vjp<T, F, Fd>(name, x, rng);
  check_adjoint<T, F>(name, x, rng);
}

// ======================================================================================
// (f) The maps of JAX's check_grads recursion.
// ======================================================================================

/// (x_0..x_{N-1}, t_0..t_{N-1}) ↦ jvp(F, x, t).second: the fwd map.
template <class F, std::size_t N>
struct jvp_map {
  template <class... A>
    requires(sizeof...(A) == 2 * N)
  constexpr auto operator()(const A&... a) const {
    const std::tuple<A...> all{a...};
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return calx::jvp(F{}, std::tuple{std::get<I>(all)...}, std::tuple{std::get<N + I>(all)...}).second;
    }(std::make_index_sequence<N>{});
  }
};

/// x ↦ vjp(F, x).second(F(x)): the rev map (JAX's `lambda *a: vjp(f, *a)[1](f(*a))`).
template <class F, std::size_t N>
struct vjp_map {
  template <class... A>
    requires(sizeof...(A) == N)
  constexpr auto operator()(const A&... a) const {
    const auto [y, pb] = calx::vjp(F{}, a...);
    return pb(y);
  }
};

/// JAX's check_grads(f, x, order, modes=("fwd", "rev")) at one point: order 1 is
/// `first_order`; order 2 adds `first_order` of the fwd map at (x, t) with a random t,
/// and of the rev map at x.
template <int Order, class T, class F, class Fd, std::size_t N>
void check_grads(const std::string& name, const std::array<T, N>& x, random& rng) {
  first_order<T, F, Fd>(name, x, rng);
  if constexpr (Order >= 2) {
    std::array<T, 2 * N> xt{};
    for (std::size_t i = 0; i < N; ++i) {
      xt[i] = x[i];
      xt[N + i] = static_cast<T>(rng.normal());
    }
    check_grads<Order - 1, T, jvp_map<F, N>, jvp_map<F, N>>("fwd map of " + name, xt, rng);
    check_grads<Order - 1, T, vjp_map<F, N>, vjp_map<F, N>>("rev map of " + name, x, rng);
  }
}

// ======================================================================================
// The structural laws.
// ======================================================================================

/// (d) jacfwd == jacrev; grad and value_and_grad == vjp with cotangent 1.
template <class T, class F, std::size_t N>
void check_jacobians(const std::string& name, const std::array<T, N>& x) {
  constexpr auto an = all_argnums<N>;
  const auto jf = apply_flat(calx::jacfwd(F{}, an), x);
  const auto jr = apply_flat(calx::jacrev(F{}, an), x);
  INFO(where_("jacobians", name, x));
  for (std::size_t i = 0; i < jf.size(); ++i) check_close(law_key<T>("jacfwd == jacrev"), jf[i], jr[i], exact_tolerance<T>);
  if constexpr (outputs_v<F, N> == 1) {
    const auto g = apply_flat(calx::grad(F{}, an), x);
    const auto [y, pb] = vjp_at<F>(x);
    const auto v = pull<F, T, N>(pb, std::array<T, 1>{T(1)});
    const auto [value, g2] = std::apply(calx::value_and_grad(F{}, an), x);
    const auto g2f = flatten<T>(g2);
    check_same(law_key<T>("value_and_grad value == vjp value"), value, y);
    for (std::size_t k = 0; k < N; ++k) {
      check_close(law_key<T>("grad == vjp(1)"), g[k], v[k], exact_tolerance<T>);
      check_close(law_key<T>("grad == jacrev"), g[k], jr[k], exact_tolerance<T>);
      check_same(law_key<T>("value_and_grad grad == grad"), g2f[k], g[k]);
    }
  }
}

/// (e) The Hessian of a scalar function: symmetric, equal to the four compositions of
/// jacfwd and jacrev, and H·t against central differences of grad.
template <class T, class F, std::size_t N>
void check_hessian(const std::string& name, const std::array<T, N>& x, random& rng) {
  constexpr auto an = all_argnums<N>;
  static_assert(std::is_same_v<decltype(calx::hessian(F{}, an)), decltype(calx::jacfwd(calx::jacrev(F{}, an), an))>,
                "calx::hessian is jacfwd(jacrev(f)) by definition");
  const auto h = apply_flat(calx::hessian(F{}, an), x);
  const auto fr = apply_flat(calx::jacfwd(calx::jacrev(F{}, an), an), x);
  const auto rf = apply_flat(calx::jacrev(calx::jacfwd(F{}, an), an), x);
  const auto rr = apply_flat(calx::jacrev(calx::jacrev(F{}, an), an), x);
  const auto ff = apply_flat(calx::jacfwd(calx::jacfwd(F{}, an), an), x);
  static_assert(h.size() == N * N);
  INFO(where_("hessian", name, x));
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      const double hij = h[i * N + j];
      check_same(law_key<T>("hessian == jacfwd(jacrev)"), hij, fr[i * N + j]);
      check_close(law_key<T>("hessian == jacrev(jacfwd)"), rf[i * N + j], hij, exact_tolerance<T>);
      check_close(law_key<T>("hessian == jacrev(jacrev)"), rr[i * N + j], hij, exact_tolerance<T>);
      check_close(law_key<T>("hessian == jacfwd(jacfwd)"), ff[i * N + j], hij, exact_tolerance<T>);
      check_close(law_key<T>("hessian symmetric"), h[j * N + i], hij, exact_tolerance<T>);
    }
  std::array<T, N> t{};
  for (auto& e : t) e = static_cast<T>(rng.normal());
  using grad_t = decltype(calx::grad(F{}, an));
  const auto fd = fd_jvp<grad_t>(cast<double>(x), cast<double>(t));
  for (std::size_t i = 0; i < N; ++i) {
    double ht = 0;
    for (std::size_t j = 0; j < N; ++j) ht += static_cast<double>(h[i * N + j]) * static_cast<double>(t[j]);
    check_close(law_key<T>("hessian t ~ finite differences of grad"), ht, fd[i], fd_tolerance<T>);
  }
}

/// (g) linearize == jvp; a pullback is a pure function of its cotangent.
template <class T, class F, std::size_t N>
void check_linear(const std::string& name, const std::array<T, N>& x, random& rng) {
  constexpr std::size_t M = outputs_v<F, N>;
  std::array<T, N> t{};
  std::array<T, M> u1{}, u2{};
  for (auto& e : t) e = static_cast<T>(rng.normal());
  for (auto& e : u1) e = static_cast<T>(rng.normal());
  for (auto& e : u2) e = static_cast<T>(rng.normal());
  const auto [y, jt] = jvp_flat<F>(x, t);
  const auto [ly, lin] = std::apply([](const auto&... a) { return calx::linearize(F{}, a...); }, x);
  const auto lt = flatten<T>(std::apply(lin, t));
  const auto lt2 = flatten<T>(std::apply(lin, t));
  const auto lyf = flatten<T>(ly);
  INFO(where_("linear", name, x));
  for (std::size_t o = 0; o < M; ++o) {
    check_same(law_key<T>("linearize value == jvp value"), lyf[o], y[o]);
    check_close(law_key<T>("linearize(t) == jvp tangent"), lt[o], jt[o], exact_tolerance<T>);
    check_same(law_key<T>("linear map called twice"), lt2[o], lt[o]);
  }
  // JVP linearity: jvp(f, x, a t + b s) = a jvp(f, x, t) + b jvp(f, x, s), in T; a and b
  // are powers of two so that a t + b s rounds once per element.
  std::array<T, N> s{}, ts{};
  for (auto& e : s) e = static_cast<T>(rng.normal());
  for (std::size_t k = 0; k < N; ++k) ts[k] = T(2) * t[k] - T(0.5) * s[k];
  const auto js = jvp_flat<F>(x, s).second;
  const auto jts = jvp_flat<F>(x, ts).second;
  for (std::size_t o = 0; o < M; ++o) {
    const double want = 2.0 * static_cast<double>(jt[o]) - 0.5 * static_cast<double>(js[o]);
    check_close(law_key<T>("jvp linear in the tangent"), jts[o], want,
                2.0 * std::abs(static_cast<double>(jt[o])) + 0.5 * std::abs(static_cast<double>(js[o])),
                exact_tolerance<T>);
  }
  const auto [vy, pb] = vjp_at<F>(x);
  const auto a = pull<F, T, N>(pb, u1);
  const auto b = pull<F, T, N>(pb, u1);
  (void)pull<F, T, N>(pb, u2);
  const auto c = pull<F, T, N>(pb, u1);
  for (std::size_t k = 0; k < N; ++k) {
    check_same(law_key<T>("pullback called twice"), b[k], a[k]);
    check_same(law_key<T>("pullback after another cotangent"), c[k], a[k]);
  }
}

// ======================================================================================
// The table of primitives, with domains where each is smooth.
// ======================================================================================

/// Where an operand is drawn: uniformly from [lo, hi], and with `mirrored` from
/// -[lo, hi] as well (a random sign), which keeps kinks at 0 out of reach.
struct interval {
  double lo, hi;
  bool mirrored = false;
};

/// The header of calx/ops/ that defines a primitive; each grad.laws.<family>.cpp
/// instantiates the laws for one family, so that tests/ mirrors include/calx/ops/.
/// `where` and `comparison` are also calx/ops/selection.hpp's: where, and where with each
/// comparison as its predicate, in TUs of their own (grad.laws.selection.where.cpp,
/// grad.laws.selection.comparison.{0,1}.cpp) to keep each TU's compile time down.
enum class family { arithmetic, exponential, powers, trigonometric, special, selection, where, comparison, mask };

/// One differentiable primitive. `Fn` is the calx function under test (stateless, N
/// scalar arguments, scalar result); `Fd` has the same derivative and is what finite
/// differences are taken of (Fn except for stop_gradient). `keep` rejects points too near
/// a kink (a tie of min/max, the origin of atan2), where central differences of step
/// fd_eps * |t| would straddle it.
template <std::size_t N, class Fn, class Fd>
struct op_row {
  static constexpr std::size_t arity = N;
  using fn = Fn;
  using fd = Fd;
  family fam;
  const char* name;
  std::array<interval, N> domain;
  bool (*keep)(const std::array<double, N>&) = nullptr;

  /// A point of the domain (rejection-sampled against `keep`), rounded to T.
  template <class T>
  std::array<T, N> point(random& rng) const {
    for (;;) {
      std::array<double, N> x{};
      for (std::size_t i = 0; i < N; ++i) {
        x[i] = rng.uniform(domain[i].lo, domain[i].hi);
        if (domain[i].mirrored && rng.uniform() < 0.5) x[i] = -x[i];
      }
      const auto xt = cast<T>(x);
      if (keep == nullptr || keep(cast<double>(xt))) return xt;
    }
  }
};

template <class Fn, class Fd = Fn>
constexpr auto row(family f, const char* name, Fn, interval a, Fd = {}) {
  return op_row<1, Fn, Fd>{f, name, {a}};
}
template <class Fn>
constexpr auto row(family f, const char* name, Fn, interval a, interval b,
                   bool (*keep)(const std::array<double, 2>&) = nullptr) {
  return op_row<2, Fn, Fn>{f, name, {a, b}, keep};
}
template <class Fn>
constexpr auto row(family f, const char* name, Fn, interval c, interval a, interval b) {
  return op_row<3, Fn, Fn>{f, name, {c, a, b}};
}

/// Kink guards. Central differences move an operand by at most fd_eps * |t| <~ 5e-4
/// (|t| <= 5 for every draw of these seeds); the margins below are 100x that.
inline bool apart(const std::array<double, 2>& x) { return std::abs(x[0] - x[1]) > 0.05; }
inline bool off_origin(const std::array<double, 2>& x) { return x[0] * x[0] + x[1] * x[1] > 0.25; }

inline constexpr interval sym3{-3, 3};

/// Every differentiable primitive, one row each; the row's name is the op's
/// (`op_traits<Op>::name`). Comparisons have no derivative of their own: each is covered
/// as the predicate of where, in a row named "where(<comparison>)".
inline constexpr auto rows = std::make_tuple(
    row(family::arithmetic, "add", [](auto a, auto b) { return a + b; }, sym3, sym3),
    row(family::arithmetic, "sub", [](auto a, auto b) { return a - b; }, sym3, sym3),
    row(family::arithmetic, "mul", [](auto a, auto b) { return a * b; }, sym3, sym3),
    row(family::arithmetic, "div", [](auto a, auto b) { return a / b; }, sym3, {0.5, 3, true}),
    row(family::arithmetic, "neg", [](auto a) { return -a; }, sym3),
    // stop_gradient's value is the identity's, its derivative 0: differences of 0 * x.
    row(family::arithmetic, "stop_gradient", calx::stop_gradient, sym3, [](auto x) { return 0 * x; }),
    // x^p for x in [0.5, 3]: |p log x| <= 2.75, so values stay within [0.05, 21].
    row(family::exponential, "pow", calx::pow, {0.5, 3}, {-2.5, 2.5}),
    row(family::exponential, "exp", calx::exp, sym3),
    row(family::exponential, "log", calx::log, {0.2, 5}),
    row(family::exponential, "log1p", calx::log1p, {-0.7, 5}),
    row(family::exponential, "expm1", calx::expm1, sym3),
    row(family::exponential, "sqrt", calx::sqrt, {0.2, 5}),
    row(family::exponential, "rsqrt", calx::rsqrt, {0.2, 5}),
    // Away from the origin, where hypot has a kink (its partials there are JAX's 1/2).
    row(family::powers, "hypot", calx::hypot, sym3, sym3, off_origin),
    row(family::powers, "exp2", calx::exp2, sym3),
    row(family::powers, "log2", calx::log2, {0.2, 5}),
    row(family::powers, "log10", calx::log10, {0.2, 5}),
    // Both signs, away from the kink at 0 (cbrt'(0) is inf).
    row(family::powers, "cbrt", calx::cbrt, {0.2, 5, true}),
    row(family::powers, "square", calx::square, sym3),
    // Both signs, away from the pole at 0.
    row(family::powers, "reciprocal", calx::reciprocal, {0.5, 3, true}),
    row(family::trigonometric, "sin", calx::sin, sym3),
    row(family::trigonometric, "cos", calx::cos, sym3),
    // |x| <= 1.2: tan' <= 8.4 and the third derivative <= 400.
    row(family::trigonometric, "tan", calx::tan, {-1.2, 1.2}),
    row(family::trigonometric, "tanh", calx::tanh, sym3),
    row(family::trigonometric, "atan2", calx::atan2, sym3, sym3, off_origin),
    row(family::special, "sigmoid", calx::sigmoid, {-5, 5}),
    row(family::special, "erf", calx::erf, {-2.5, 2.5}),
    row(family::special, "erfc", calx::erfc, {-2.5, 2.5}),
    row(family::selection, "abs", calx::abs, {0.1, 3, true}),
    row(family::selection, "sign", calx::sign, {0.1, 3, true}),
    row(family::selection, "min", calx::min, sym3, sym3, apart),
    row(family::selection, "max", calx::max, sym3, sym3, apart),
    row(family::where, "where", [](auto c, auto a, auto b) { return calx::where(c > 0.0, a, b); },
        {0.05, 1, true}, sym3, sym3),
    row(family::where, "where(lt)", [](auto a, auto b) { return calx::where(a < b, a, b); }, sym3, sym3, apart),
    row(family::where, "where(le)", [](auto a, auto b) { return calx::where(a <= b, a * b, a - b); }, sym3, sym3,
        apart),
    row(family::comparison, "where(gt)", [](auto a, auto b) { return calx::where(a > b, calx::sin(a), b * b); }, sym3,
        sym3, apart),
    row(family::comparison, "where(ge)", [](auto a, auto b) { return calx::where(a >= b, a, b); }, sym3, sym3, apart),
    row(family::comparison, "where(eq)", [](auto a, auto b) { return calx::where(a == b, a, a * b); }, sym3, sym3,
        apart),
    row(family::comparison, "where(ne)", [](auto a, auto b) { return calx::where(a != b, a * b, b); }, sym3, sym3,
        apart),
    // Masks combined (issue 30): each switches where a = b only, which `apart` keeps away.
    row(family::mask, "where(and)", [](auto a, auto b) { return calx::where((a < b) && !(b < a), a * b, a - b); },
        sym3, sym3, apart),
    row(family::mask, "where(or)", [](auto a, auto b) { return calx::where((a > b) || (a == b), calx::sin(a), b * b); },
        sym3, sym3, apart),
    row(family::mask, "where(not)", [](auto a, auto b) { return calx::where(!(a >= b), a, a * b); }, sym3, sym3,
        apart));

inline constexpr std::size_t row_count = std::tuple_size_v<std::remove_cvref_t<decltype(rows)>>;

/// Each row's family, in table order.
inline constexpr std::array<family, row_count> row_families =
    std::apply([](const auto&... r) { return std::array<family, row_count>{r.fam...}; }, rows);

/// How many rows of family `f` come before row `i` (all of them: i = row_count).
constexpr std::size_t rows_before(family f, std::size_t i) {
  std::size_t n = 0;
  for (std::size_t j = 0; j < i; ++j) n += row_families[j] == f ? 1 : 0;
  return n;
}

/// Calls `f(row)` for every row of family `Fam`, in table order; with `Parts` > 1, for
/// part `Part` of them only (a family's rows split over TUs for the compile budget).
template <family Fam, std::size_t Part = 0, std::size_t Parts = 1, class Fn>
void for_each_row(Fn&& f) {
  constexpr std::size_t n = rows_before(Fam, row_count);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          constexpr std::size_t k = rows_before(Fam, I);  // this row's place in its family
          if constexpr (row_families[I] == Fam && k >= Part * n / Parts && k < (Part + 1) * n / Parts)
            f(std::get<I>(rows));
        }(),
        ...);
  }(std::make_index_sequence<row_count>{});
}

/// The names of all rows, in table order (for coverage checks).
inline std::array<const char*, row_count> row_names() {
  return std::apply([](const auto&... r) { return std::array<const char*, row_count>{r.name...}; }, rows);
}

/// Every law, at `points` random points of the row's domain, in precision T.
inline constexpr int points_per_law = 4;

template <class T, class Row>
void all_laws(const Row& r) {
  using F = typename Row::fn;
  using Fd = typename Row::fd;
  random rng = random::for_name(r.name, sizeof(T));
  for (int i = 0; i < points_per_law; ++i) {
    const auto x = r.template point<T>(rng);
    check_grads<2, T, F, Fd>(r.name, x, rng);
    check_jacobians<T, F>(r.name, x);
    check_hessian<T, F>(r.name, x, rng);
    check_linear<T, F>(r.name, x, rng);
  }
}

}  // namespace calx_test::laws

#endif // CALX_TESTS_LAWS_HPP
