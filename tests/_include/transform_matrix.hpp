/// @file tests/_include/transform_matrix.hpp
/// @brief Runs a function F(x, y) and a reference R(x, y) with the same value through the
/// transform matrix of the open-op-set issue and compares every result: the value, grad, vjp,
/// jvp, jacfwd, jacrev, hessian, grad∘grad, jvp∘grad, vmap, vmap∘grad, vmap∘vjp∘vjp,
/// vmap∘jvp∘vjp, jvp∘vmap, and the grad of a mean over a runtime batch. F uses user ops or
/// custom rules; R only built-in ops, so agreement means F's rules (own or from its
/// decomposition) are right under every transform, at every nesting level.
#ifndef CALX_TESTS_TRANSFORM_MATRIX_HPP
#define CALX_TESTS_TRANSFORM_MATRIX_HPP

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace calx_test::matrix {

/// Relative tolerance between F's and R's results. F and R compute the same values through
/// differently ordered (but mathematically equal) expressions: a decomposition's rules
/// against the built-ins' own, a custom rule against the chain rule, so they differ by a few
/// roundings of terms of the size of the result. Measured worst over the points below, all
/// functions and transforms (CALX_MATRIX_STATS=1): 3.4e-16 (double), 1.3e-7 (float), relative
/// to max(1, |want|); these bounds are about 30x that.
template <class T>
constexpr double rtol = sizeof(T) == 8 ? 1e-14 : 4e-6;

/// The worst |got - want| / max(1, |want|) seen, per precision (CALX_MATRIX_STATS=1 prints it).
template <class T>
inline double worst = 0;

template <class T>
bool close(T got, T want) {
  const double g = static_cast<double>(got), w = static_cast<double>(want);
  if (std::isnan(g) || std::isnan(w)) return false;  // the functions here are finite everywhere tested
  const double e = std::abs(g - w) / std::max(1.0, std::abs(w));
  worst<T> = std::max(worst<T>, e);
  return e <= rtol<T>;
}

/// Compares two results leaf by leaf (numbers, columns, tuples, pairs, arrays of them).
template <class A, class B>
void compare(const std::string& what, const A& got, const B& want) {
  if constexpr (std::is_arithmetic_v<A>) {
    // Compared in the less precise of the two types (a user's forward may promote float to
    // double through its double literals; the reference need not).
    using T = std::conditional_t<(sizeof(A) < sizeof(B)), A, B>;
    INFO(what << ": got " << got << ", want " << want);
    CHECK(close<T>(static_cast<T>(got), static_cast<T>(want)));
  } else if constexpr (requires { got.size(); got[0]; }) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) compare(what + "[" + std::to_string(i) + "]", got[i], want[i]);
  } else {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (compare(what + "." + std::to_string(I), std::get<I>(got), std::get<I>(want)), ...);
    }(std::make_index_sequence<std::tuple_size_v<A>>{});
  }
}

/// d/dx of F, as a function: the inner transform of the second-order rows.
template <class F>
struct dx {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    return std::get<0>(calx::grad(F{}, calx::argnums<0, 1>)(x, y));
  }
};
/// vjp of (vjp of F): d²F/dx² and d²F/dxdy through two pullbacks.
template <class F>
struct vjp_vjp {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    const auto [g, pullback] = calx::vjp(
        [](auto a, auto b) {
          auto [v, pb] = calx::vjp(F{}, a, b);
          return std::get<0>(pb(v * 0.0 + 1.0));
        },
        x, y);
    const auto [gxx, gxy] = pullback(g * 0.0 + 1.0);
    return gxx + 2.0 * gxy;
  }
};
/// jvp of (vjp of F) in the direction (y, x).
template <class F>
struct jvp_vjp {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    return calx::jvp(
               [](auto a, auto b) {
                 auto [v, pb] = calx::vjp(F{}, a, b);
                 return std::get<1>(pb(v * 0.0 + 1.0));
               },
               std::tuple{x, y}, std::tuple{y, x})
        .second;
  }
};
/// A loss over a runtime batch: the mean of F over the samples xs, with y shared.
template <class F>
struct mean_loss {
  template <class X, class Y>
  constexpr auto operator()(const X& xs, const Y& y) const {
    return calx::mean(calx::vmap(F{}, calx::in_axes<0, calx::none>)(xs, y));
  }
};

/// The points: moderate values where every function here is smooth.
template <class T>
std::vector<std::pair<T, T>> points() {
  return {{T(0.5), T(1.25)}, {T(-1.5), T(0.75)}, {T(2.0), T(-0.5)}, {T(0.0), T(0.25)}, {T(-0.25), T(-2.0)}};
}

/// Every transform of F and R called on each point.
template <class T, class F, class R>
void run_calls(const char* name) {
  using calx::argnums;
  INFO("function " << name << ", " << (sizeof(T) == 8 ? "double" : "float"));
  const std::string n = name;
  for (const auto& [x, y] : points<T>()) {
    compare(n + " value", F{}(x, y), R{}(x, y));
    compare(n + " grad", calx::grad(F{}, argnums<0, 1>)(x, y), calx::grad(R{}, argnums<0, 1>)(x, y));
    {
      const auto [vf, pf] = calx::vjp(F{}, x, y);
      const auto [vr, pr] = calx::vjp(R{}, x, y);
      compare(n + " vjp value", vf, vr);
      compare(n + " vjp", pf(T(1.5)), pr(T(1.5)));
    }
    compare(n + " jvp", calx::jvp(F{}, std::tuple{x, y}, std::tuple{T(0.5), T(-2)}),
            calx::jvp(R{}, std::tuple{x, y}, std::tuple{T(0.5), T(-2)}));
    compare(n + " jacfwd", calx::jacfwd(F{}, argnums<0, 1>)(x, y), calx::jacfwd(R{}, argnums<0, 1>)(x, y));
    compare(n + " jacrev", calx::jacrev(F{}, argnums<0, 1>)(x, y), calx::jacrev(R{}, argnums<0, 1>)(x, y));
    compare(n + " hessian", calx::hessian(F{}, argnums<0, 1>)(x, y), calx::hessian(R{}, argnums<0, 1>)(x, y));
    compare(n + " grad(grad)", calx::grad(dx<F>{}, argnums<0, 1>)(x, y), calx::grad(dx<R>{}, argnums<0, 1>)(x, y));
    compare(n + " jvp(grad)", calx::jvp(dx<F>{}, std::tuple{x, y}, std::tuple{T(1), T(0.5)}),
            calx::jvp(dx<R>{}, std::tuple{x, y}, std::tuple{T(1), T(0.5)}));
  }
}

/// F and R over a runtime batch of the points (SIMD loops, with the decompositions of ops
/// that have no SIMD kernel), under vmap and the transforms that take batches.
template <class T, class F, class R>
void run_batches(const char* name) {
  using calx::argnums;
  INFO("function " << name << ", " << (sizeof(T) == 8 ? "double" : "float"));
  const std::string n = name;
  std::vector<T> xs, ys, ts, us;
  for (const auto& [x, y] : points<T>()) {
    xs.push_back(x);
    ys.push_back(y);
    ts.push_back(T(0.5) * y);
    us.push_back(T(1) - x);
  }
  compare(n + " vmap", calx::vmap(F{})(xs, ys), calx::vmap(R{})(xs, ys));
  compare(n + " vmap(grad)", calx::vmap(calx::grad(F{}, argnums<0, 1>))(xs, ys),
          calx::vmap(calx::grad(R{}, argnums<0, 1>))(xs, ys));
  compare(n + " vmap(vjp(vjp))", calx::vmap(vjp_vjp<F>{})(xs, ys), calx::vmap(vjp_vjp<R>{})(xs, ys));
  compare(n + " vmap(jvp(vjp))", calx::vmap(jvp_vjp<F>{})(xs, ys), calx::vmap(jvp_vjp<R>{})(xs, ys));
  compare(n + " jvp(vmap)", calx::jvp(calx::vmap(F{}), std::tuple{xs, ys}, std::tuple{ts, us}),
          calx::jvp(calx::vmap(R{}), std::tuple{xs, ys}, std::tuple{ts, us}));
  compare(n + " grad(mean over a batch)", calx::grad(mean_loss<F>{}, argnums<0, 1>)(xs, T(0.75)),
          calx::grad(mean_loss<R>{}, argnums<0, 1>)(xs, T(0.75)));
  // Per sample, vmap agrees with the plain call too.
  const auto v = calx::vmap(F{})(xs, ys);
  for (std::size_t i = 0; i < xs.size(); ++i) compare(n + " vmap vs call", v[i], R{}(xs[i], ys[i]));
  if (std::getenv("CALX_MATRIX_STATS") != nullptr)
    std::fprintf(stderr, "matrix %s %s: worst relative difference so far %.3g\n", name,
                 sizeof(T) == 8 ? "double" : "float", worst<T>);
}

/// The whole matrix: every transform on each point, then over a batch of them.
template <class T, class F, class R>
void run(const char* name) {
  run_calls<T, F, R>(name);
  run_batches<T, F, R>(name);
}

/// `run` on the function objects themselves (F and R deduced without their const).
template <class T, class F, class R>
void run(const F&, const R&, const char* name) {
  run<T, F, R>(name);
}

}  // namespace calx_test::matrix

#endif  // CALX_TESTS_TRANSFORM_MATRIX_HPP
