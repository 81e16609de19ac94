/// @file tests/_include/loop_carries.hpp
/// @brief Loops whose carry mixes tensors of several shapes, numbers and nested pairs, tuples
/// and a Hana struct (issue 31: `jacfwd` through a `while_loop` whose carry held a tensor and
/// another value read uninitialised memory: a symbolic zero tangent of the tensor became one
/// number in the tangent carry, shifting every later carry's elements). `while_loop`,
/// `fori_loop` and `scan`, f64, under jacfwd, jacrev (not through while_loop: JAX refuses
/// reverse mode there too), hessian (jacfwd of jacfwd through while_loop) and vmap of jacfwd,
/// each derivative with respect to one argument while the other's carries ride along with
/// no tangent. References: jvp column by column (tangents given as values, so no symbolic
/// zero reaches the loop) and central differences of the function on plain numbers (which
/// runs the loops as C++ loops).
///
/// Tolerances: jacfwd and jvp run the same tangent program, 16 epsilons relative to
/// |want| + 1; jacrev adds cotangents in another order, 64. Central differences with step
/// h = 1e-5 (first order) and 1e-4 on the gradient (second order) are within 1e-7 and 1e-6
/// relative to |want| + 1 for these smooth functions (truncation h^2 ~ 1e-10, rounding
/// eps / h ~ 1e-11).

#ifndef CALX_TESTS_LOOP_CARRIES_HPP
#define CALX_TESTS_LOOP_CARRIES_HPP

#include <_include/loop_checks.hpp>

#include <boost/hana.hpp>
#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace loop_carries {

/// A Hana struct in the carry: a 2x2 tensor beside a number.
template <class T>
struct gauge {
  BOOST_HANA_DEFINE_STRUCT(gauge, (calx::tensor<double, 2, 2>, m), (T, w));
};

using namespace calx_test;
using vec3 = calx::tensor<double, 3>;

/// The carry: (v: f64[3], (u: f64, (g: {m: f64[2,2], w: f64}, q: f64[2]))). v comes from
/// `a`, the rest from `s`: a derivative with respect to one argument leaves the others'
/// tangents symbolic zeros, before and after the tensor.
template <class A, class S>
constexpr auto initial(const A& a, S s) {
  return std::pair{a * 1.0, std::tuple{s * 2.0, std::pair{gauge<S>{calx::tensor<double, 2, 2>{} + s, s * s},
                                                          calx::tensor<double, 2>{} + s * 0.5}}};
}

/// One step: each part moves, and they feed each other.
template <class C, class I>
constexpr C step(const C& c, const I& i) {
  const auto& [v, rest] = c;
  const auto& [u, inner] = rest;
  const auto& [g, q] = inner;
  using G = std::remove_cvref_t<decltype(g)>;
  return C{v * 0.6 + 0.01 * calx::sin(u) + 0.01 * i,
           std::tuple{u * 0.95 + 0.01 * calx::sin(g.w),
                      std::pair{G{g.m * 0.9 + calx::sin(g.w) * 0.1, g.w * 0.8 + 0.05 * calx::cos(u)},
                                q * 0.7 + g.w * 0.1}}};
}

/// The result, f64[3]: every part of the final carry in it.
template <class C>
constexpr auto result(const C& c) {
  const auto& [v, rest] = c;
  const auto& [u, inner] = rest;
  const auto& [g, q] = inner;
  return v * u + calx::sum(g.m) * g.w + calx::sum(q * q);
}

/// Halving-like decay of v until its squared norm is small (5 steps at the inputs below,
/// far from a change of count: a small perturbation runs the same steps).
constexpr auto through_while = [](const auto& a, auto s) {
  return result(calx::while_loop([](const auto& c) { return calx::sum(c.first * c.first) > 0.05; },
                                 [](const auto& c) { return step(c, 1.0); }, initial(a, s)));
};
constexpr auto through_fori = [](const auto& a, auto s) {
  return result(calx::fori_loop(0, 4, [](auto i, const auto& c) { return step(c, i); }, initial(a, s)));
};
/// scan over the rows of a 3x2 xs (scaled by s), stacking a tensor per step.
constexpr auto through_scan = [](const auto& a, auto s) {
  calx::tensor<double, 3, 2> xs;
  for (std::size_t k = 0; k < 6; ++k) xs[k] = 0.1 * static_cast<double>(k) - 0.2;
  const auto [c, ys] = calx::scan(
      [](const auto& c, const auto& x) {
        const auto next = step(c, calx::sum(x));
        return std::pair{next, next.first * x(0)};
      },
      initial(a, s), xs * s);
  return result(c) + calx::sum(ys, calx::axis<0>);
};

inline vec3 point() {
  vec3 a;
  a[0] = 0.9;
  a[1] = -1.3;
  a[2] = 1.7;
  return a;
}
constexpr double s0 = 0.7;

inline vec3 plain(const auto& f, const vec3& a, double s) {
  return f(a, s);
}

/// Column j of d f / d a (j < 3) or d f / d s (j = 3) by central differences on plain numbers.
template <class F>
vec3 difference(const F& f, int j, double h) {
  vec3 ap = point(), am = point();
  double sp = s0, sm = s0;
  if (j < 3) {
    ap[static_cast<std::size_t>(j)] += h;
    am[static_cast<std::size_t>(j)] -= h;
  } else {
    sp += h;
    sm -= h;
  }
  const vec3 fp = plain(f, ap, sp), fm = plain(f, am, sm);
  vec3 d;
  for (std::size_t e = 0; e < 3; ++e) d[e] = (fp[e] - fm[e]) / (2 * h);
  return d;
}

/// Column j as jvp gives it (tangents as values: e_j for a, or 1 for s).
template <class F>
vec3 jvp_column(const F& f, int j) {
  vec3 ta{};
  double ts = 0;
  if (j < 3)
    ta[static_cast<std::size_t>(j)] = 1;
  else
    ts = 1;
  return calx::jvp(f, std::tuple{point(), s0}, std::tuple{ta, ts}).second;
}

inline void check_near(const std::string& what, double got, double want, double rel) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::isfinite(got));
  CHECK(std::abs(got - want) <= rel * (1 + std::abs(want)));
}

/// The Jacobians of `f` with respect to a (3x3) and s (3), in forward mode and (`reverse`)
/// in reverse mode, against jvp columns and central differences.
template <bool Reverse, class F>
void check_jacobians(const F& f) {
  const vec3 a = point();
  const double eps = std::numeric_limits<double>::epsilon();
  const auto ja = calx::jacfwd(f, calx::argnums<0>)(a, s0);  // f64[3,3]
  const vec3 js = calx::jacfwd(f, calx::argnums<1>)(a, s0);  // f64[3]
  for (int j = 0; j < 4; ++j) {
    const vec3 col = jvp_column(f, j), fd = difference(f, j, 1e-5);
    for (std::size_t i = 0; i < 3; ++i) {
      const std::string at = "[" + std::to_string(i) + "," + std::to_string(j) + "]";
      const double got = j < 3 ? double(ja(i, static_cast<std::size_t>(j))) : double(js[i]);
      check_near("jacfwd vs jvp" + at, got, col[i], 16 * eps);
      check_near("jvp vs central differences" + at, col[i], fd[i], 1e-7);
    }
  }
  if constexpr (Reverse) {
    const auto ra = calx::jacrev(f, calx::argnums<0>)(a, s0);
    const vec3 rs = calx::jacrev(f, calx::argnums<1>)(a, s0);
    for (std::size_t i = 0; i < 3; ++i) {
      for (std::size_t j = 0; j < 3; ++j) check_near("jacrev a", ra(i, j), ja(i, j), 64 * eps);
      check_near("jacrev s", rs[i], js[i], 64 * eps);
    }
  }
}

/// The second derivatives of sum(f * f) with respect to a and to s: hessian (or, through a
/// while_loop, jacfwd of jacfwd), against central differences of its gradient.
template <bool Reverse, class F>
void check_second(const F&) {
  constexpr auto g = [](const auto& a, auto s) {
    const auto y = F{}(a, s);
    return calx::sum(y * y);
  };
  const vec3 a = point();
  const auto second = [&]<int K>(std::integral_constant<int, K>) {
    if constexpr (Reverse)
      return calx::hessian(g, calx::argnums<K>)(a, s0);
    else
      return calx::jacfwd(calx::jacfwd(g, calx::argnums<K>), calx::argnums<K>)(a, s0);
  };
  const auto haa = second(std::integral_constant<int, 0>{});  // f64[3,3]
  const double hss = num(second(std::integral_constant<int, 1>{}));
  const auto grad_a = [&](const vec3& x, double s) { return calx::jacfwd(g, calx::argnums<0>)(x, s); };
  const auto grad_s = [&](const vec3& x, double s) { return num(calx::jacfwd(g, calx::argnums<1>)(x, s)); };
  const double h = 1e-4;
  for (std::size_t j = 0; j < 3; ++j) {
    vec3 ap = a, am = a;
    ap[j] += h;
    am[j] -= h;
    const vec3 gp = grad_a(ap, s0), gm = grad_a(am, s0);
    for (std::size_t i = 0; i < 3; ++i)
      check_near("d2/da2 [" + std::to_string(i) + "," + std::to_string(j) + "]", haa(i, j),
                 (gp[i] - gm[i]) / (2 * h), 1e-6);
  }
  check_near("d2/ds2", hss, (grad_s(a, s0 + h) - grad_s(a, s0 - h)) / (2 * h), 1e-6);
}

/// vmap of jacfwd over a batch of s (and of a), against jacfwd sample by sample.
template <class F>
void check_vmap(const F& f) {
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<double> ss;
  std::vector<vec3> as;
  for (int k = 0; k < 11; ++k) {
    ss.push_back(0.4 + 0.05 * k);
    vec3 a = point();
    a[0] += 0.01 * k;
    as.push_back(a);
  }
  const auto by_s = calx::vmap(calx::jacfwd(f, calx::argnums<1>), calx::in_axes<calx::none, 0>)(point(), ss);
  const auto by_a = calx::vmap(calx::jacfwd(f, calx::argnums<0>), calx::in_axes<0, calx::none>)(as, s0);
  for (std::size_t k = 0; k < ss.size(); ++k) {
    const vec3 want_s = calx::jacfwd(f, calx::argnums<1>)(point(), ss[k]);
    const auto want_a = calx::jacfwd(f, calx::argnums<0>)(as[k], s0);
    for (std::size_t i = 0; i < 3; ++i) {
      check_near("vmap(jacfwd) s", by_s[k][i], want_s[i], 16 * eps);
      for (std::size_t j = 0; j < 3; ++j) check_near("vmap(jacfwd) a", by_a[k](i, j), want_a(i, j), 16 * eps);
    }
  }
}

}  // namespace loop_carries

#endif  // CALX_TESTS_LOOP_CARRIES_HPP
