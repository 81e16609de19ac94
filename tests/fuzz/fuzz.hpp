/// @file tests/fuzz/fuzz.hpp
/// @brief What the differential fuzzer's generated translation units share (tests/fuzz/generate.py
/// writes them; docs/fuzzing.md).
///
/// Every random program is written twice by the generator, from one expression tree:
///  - `progN`, with calx's functions (calx::, user::, fz::), run on doubles, traced and
///    transformed by calx;
///  - `refN`, the same text with `ref::` in their place: plain C++ on `long double` (80-bit
///    on x86-64), with loops as loops and `cond` as an `if`. It is the independent oracle:
///    its value checks calx's value, and its central differences calx's derivatives.
/// The reference also hashes every decision it takes (each `where`/`max`/`min` lane, each
/// `cond` predicate, each `while_loop` test) into `ref::sig`: a finite difference whose
/// points do not all take the same decisions straddles a switch point and is skipped
/// (counted as skipped, not as a check).
#ifndef CALX_TESTS_FUZZ_FUZZ_HPP
#define CALX_TESTS_FUZZ_FUZZ_HPP

#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// Custom rules of the fuzzer's own, beside user_ops.hpp's (user::my_mul, user::log1pexp).
namespace fz {
/// sin(x) * y with its own backward (a correct one: the fuzzer compares it with differences).
/// Built with -DCALX_FUZZ_MUTANT, its backward is wrong by 1% in d/dx: the fuzzer's self-test
/// (docs/fuzzing.md), which must then report failures in every program that reaches it.
#ifdef CALX_FUZZ_MUTANT
inline constexpr double sin_mul_dx = 1.01;
#else
inline constexpr double sin_mul_dx = 1.0;
#endif
inline constexpr auto sin_mul = calx::custom_vjp([](auto x, auto y) {
  return std::pair{calx::sin(x) * y,
                   [=](auto g) { return std::tuple{g * calx::cos(x) * y * sin_mul_dx, g * calx::sin(x)}; }};
});
/// x * exp(-y * y) with its own jvp closure, linear in (tx, ty).
inline constexpr auto gauss_mul = calx::custom_jvp([](auto x, auto y) {
  auto e = calx::exp(-(y * y));
  return std::pair{x * e, [=](auto tx, auto ty) { return tx * e - ty * (2.0 * x * y * e); }};
});
/// A comparison, written as a call so that the reference (ref::gt, ref::lt) can note how
/// close it came to its switch point.
template <class A, class B>
constexpr auto gt(const A& a, const B& b) {
  return a > b;
}
template <class A, class B>
constexpr auto lt(const A& a, const B& b) {
  return a < b;
}
}  // namespace fz

/// The long double reference: the ops the generator uses, on `long double` and `ref::vec`
/// (a tensor of 3). A rank-0 tensor is a `long double` here.
namespace ref {
using ld = long double;
inline std::uint64_t sig = 1469598103934665603ull;  // FNV-1a of every decision taken
inline ld margin = 1e300L;  // the closest any comparison came to its switch point (relative)
inline void near(ld p, ld q) {
  const ld m = std::fabs(p - q) / (1 + std::fabs(p) + std::fabs(q));
  if (m < margin) margin = m;
}
inline bool decide(bool b) {
  sig = (sig ^ (b ? 0x9eu : 0x3bu)) * 1099511628211ull;
  return b;
}

struct vec {
  ld e[3]{};
  ld operator()(int i) const { return e[i]; }
};
struct bvec {
  bool e[3]{};
};
template <class T>
concept num = std::is_arithmetic_v<T>;

inline ld at(ld s, int) { return s; }
inline ld at(const vec& a, int i) { return a.e[i]; }
inline bool bat(bool b, int) { return b; }
inline bool bat(const bvec& b, int i) { return b.e[i]; }
template <class A, class B>
inline constexpr bool any_vec = std::is_same_v<std::decay_t<A>, vec> || std::is_same_v<std::decay_t<B>, vec>;

template <class A, class B, class F>
auto zip(const A& a, const B& b, F f) {
  if constexpr (any_vec<A, B>) {
    vec r;
    for (int i = 0; i < 3; ++i) r.e[i] = f(at(a, i), at(b, i));
    return r;
  } else {
    return f(ld(a), ld(b));
  }
}
template <class A, class B>
  requires any_vec<A, B>
vec operator+(const A& a, const B& b) { return zip(a, b, [](ld p, ld q) { return p + q; }); }
template <class A, class B>
  requires any_vec<A, B>
vec operator-(const A& a, const B& b) { return zip(a, b, [](ld p, ld q) { return p - q; }); }
template <class A, class B>
  requires any_vec<A, B>
vec operator*(const A& a, const B& b) { return zip(a, b, [](ld p, ld q) { return p * q; }); }
template <class A, class B>
  requires any_vec<A, B>
vec operator/(const A& a, const B& b) { return zip(a, b, [](ld p, ld q) { return p / q; }); }
inline vec operator-(const vec& a) { return zip(a, ld(0), [](ld p, ld) { return -p; }); }
// Comparisons of tensors give masks; their lanes are recorded where `where` reads them.
// Comparisons (the generator writes fz::gt(a, b), ref::gt(a, b) here) note their margin.
template <class A, class B>
auto gt(const A& a, const B& b) {
  if constexpr (any_vec<A, B>) {
    bvec r;
    for (int i = 0; i < 3; ++i) near(at(a, i), at(b, i)), r.e[i] = at(a, i) > at(b, i);
    return r;
  } else {
    near(ld(a), ld(b));
    return ld(a) > ld(b);
  }
}
template <class A, class B>
auto lt(const A& a, const B& b) { return gt(b, a); }

#define CALX_FUZZ_UNARY(name, expr)                              \
  inline ld name(ld p) { return expr; }                          \
  inline vec name(const vec& a) {                                \
    vec r;                                                       \
    for (int i = 0; i < 3; ++i) r.e[i] = name(a.e[i]);           \
    return r;                                                    \
  }
CALX_FUZZ_UNARY(sin, std::sin(p))
CALX_FUZZ_UNARY(cos, std::cos(p))
CALX_FUZZ_UNARY(tanh, std::tanh(p))
CALX_FUZZ_UNARY(exp, std::exp(p))
CALX_FUZZ_UNARY(log, std::log(p))
CALX_FUZZ_UNARY(sqrt, std::sqrt(p))
CALX_FUZZ_UNARY(softplus, std::log1p(std::exp(p)))
CALX_FUZZ_UNARY(softabs, std::log1p(std::exp(p)) + std::log1p(std::exp(-p)) - 1.3862943611198906L)
// log1pexp switches to x above 30 (user_ops.hpp): a decision.
CALX_FUZZ_UNARY(log1pexp, (near(p, 30), decide(p > 30)) ? p : std::log1p(std::exp(p)))
#undef CALX_FUZZ_UNARY

template <class A, class B>
auto max(const A& a, const B& b) { return zip(a, b, [](ld p, ld q) { return near(p, q), decide(p > q) ? p : q; }); }
template <class A, class B>
auto min(const A& a, const B& b) { return zip(a, b, [](ld p, ld q) { return near(p, q), decide(p < q) ? p : q; }); }
template <class A, class B>
auto logaddexp(const A& a, const B& b) {
  return zip(a, b, [](ld p, ld q) { return std::fmax(p, q) + std::log1p(std::exp(-std::fabs(p - q))); });
}
template <class C, class A, class B>
auto where(const C& c, const A& a, const B& b) {
  if constexpr (std::is_same_v<C, bvec> || any_vec<A, B>) {
    vec r;
    for (int i = 0; i < 3; ++i) r.e[i] = decide(bat(c, i)) ? at(a, i) : at(b, i);
    return r;
  } else {
    return decide(c) ? ld(a) : ld(b);
  }
}
inline ld sum(const vec& a) { return a.e[0] + a.e[1] + a.e[2]; }
template <class A, class B>
ld my_mul(const A& a, const B& b) { return ld(a) * ld(b); }
template <class A, class B>
ld sin_mul(const A& a, const B& b) { return std::sin(ld(a)) * ld(b); }
template <class A, class B>
ld gauss_mul(const A& a, const B& b) { return ld(a) * std::exp(-ld(b) * ld(b)); }

template <class T, class F, class G, class... O>
auto cond(T pred, F tf, G ff, const O&... o) {
  using R = decltype(tf(o...));
  return decide(bool(pred)) ? R(tf(o...)) : R(ff(o...));
}
template <class Body, class C>
C fori_loop(int lo, int hi, Body body, C c) {
  for (int i = lo; i < hi; ++i) c = body(i, c);
  return c;
}
template <class F, class C>
std::pair<C, vec> scan(F f, C c, const vec& xs) {
  vec ys;
  for (int s = 0; s < 3; ++s) {
    auto [next, y] = f(c, xs.e[s]);
    c = next;
    ys.e[s] = y;
  }
  return {c, ys};
}
template <class CF, class BF, class C>
C while_loop(CF cf, BF bf, C c) {
  while (decide(bool(cf(c)))) c = bf(c);
  return c;
}
}  // namespace ref

namespace fuzz {

/// One input point: x, y and v. The tangent direction of jvp, and the points of vmap, are
/// fixed too (below).
struct point {
  double x, y;
  std::array<double, 3> v;
};
inline constexpr point points[] = {
    {0.37, -0.61, {0.3, -0.5, 0.7}},
    {-0.83, 0.45, {-0.2, 0.9, 0.15}},
    {1.21, 0.77, {0.6, 0.1, -1.1}},
};
inline constexpr point tangent = {0.7, -0.4, {0.5, 0.25, -0.6}};

struct stats {
  long programs = 0, checks = 0, failures = 0, skipped = 0;
};
inline stats totals;
inline int failed_program = -1;  // the last program whose source was printed

inline double num(double d) { return d; }
inline double num(const calx::tensor<double>& t) { return static_cast<double>(t); }
/// Every number of a result, flattened: doubles, tensors, and tuples/pairs of them.
inline void flatten(std::vector<double>& out, double d) { out.push_back(d); }
template <class T, std::size_t N>
void flatten(std::vector<double>& out, const std::array<T, N>& a);
template <class A, class B>
void flatten(std::vector<double>& out, const std::pair<A, B>& p);
template <class... T>
void flatten(std::vector<double>& out, const std::tuple<T...>& t);
template <std::size_t... D>
void flatten(std::vector<double>& out, const calx::tensor<double, D...>& t) {
  for (std::size_t k = 0; k < calx::tensor<double, D...>::size; ++k) out.push_back(t[k]);
}
template <class... T>
void flatten(std::vector<double>& out, const std::tuple<T...>& t) {
  std::apply([&](const auto&... e) { (flatten(out, e), ...); }, t);
}
template <class T, std::size_t N>
void flatten(std::vector<double>& out, const std::array<T, N>& a) {
  for (const auto& e : a) flatten(out, e);
}
template <class A, class B>
void flatten(std::vector<double>& out, const std::pair<A, B>& p) {
  flatten(out, p.first);
  flatten(out, p.second);
}
template <class T>
std::vector<double> flat(const T& t) {
  std::vector<double> out;
  flatten(out, t);
  return out;
}

inline calx::tensor<double, 3> tensor_of(const std::array<double, 3>& a) {
  calx::tensor<double, 3> t;
  for (std::size_t k = 0; k < 3; ++k) t[k] = a[k];
  return t;
}
inline ref::vec vec_of(const std::array<double, 3>& a) { return {{a[0], a[1], a[2]}}; }

/// A check: |got - want| <= tol (1 + |want|); a NaN or infinity on either side fails.
inline void check(int program, const char* src, const char* what, int pt, double got, long double want, double tol) {
  ++totals.checks;
  const long double err = std::fabs(static_cast<long double>(got) - want);
  if (std::isfinite(got) && std::isfinite(static_cast<double>(want)) && err <= tol * (1.0L + std::fabs(want))) return;
  ++totals.failures;
  std::printf("FAIL program %d, point %d, %s: got %.17g, want %.17Lg (|diff| %.3Lg, tolerance %.3g relative to 1+|want|)\n",
              program, pt, what, got, want, err, tol);
  if (failed_program != program) {
    failed_program = program;
    std::printf("  program %d:\n%s\n", program, src);
  }
}
inline void check_all(int program, const char* src, const std::string& what, int pt, const std::vector<double>& got,
                      const std::vector<double>& want, double tol) {
  if (got.size() != want.size()) {
    check(program, src, (what + ": wrong number of results").c_str(), pt, double(got.size()), want.size(), 0);
    return;
  }
  for (std::size_t k = 0; k < got.size(); ++k)
    check(program, src, (what + "[" + std::to_string(k) + "]").c_str(), pt, got[k], want[k], tol);
}

/// The reference's value at p + a d1 + b d2, and the decisions it took.
struct sample {
  long double value;
  std::uint64_t sig;
  long double margin;
};
template <class R>
sample eval_ref(R r, const point& p, long double a = 0, const point* d1 = nullptr, long double b = 0,
                const point* d2 = nullptr) {
  long double x = p.x, y = p.y;
  ref::vec v = vec_of(p.v);
  auto add = [&](long double s, const point* d) {
    if (!d) return;
    x += s * d->x, y += s * d->y;
    for (int i = 0; i < 3; ++i) v.e[i] += s * d->v[i];
  };
  add(a, d1);
  add(b, d2);
  ref::sig = 1469598103934665603ull;
  ref::margin = 1e300L;
  const long double value = r(x, y, v);
  return {value, ref::sig, ref::margin};
}

/// Directional derivatives of the reference by central differences in long double, step h =
/// 1e-5: truncation h^2 |f'''| / 6 ~ 2e-11 |f'''|, rounding ~1e-19 |f| / h = 1e-14 |f|. Skipped
/// (false) where the points x - h d, x, x + h d do not take the same decisions.
template <class R>
bool fd1(R r, const point& p, const point& d, long double& out) {
  const long double h = 1e-5L;
  const sample c = eval_ref(r, p), plus = eval_ref(r, p, h, &d), minus = eval_ref(r, p, -h, &d);
  if (plus.sig != c.sig || minus.sig != c.sig) return false;
  out = (plus.value - minus.value) / (2 * h);
  return true;
}
/// Second derivative along d1 and d2, from four points at +-h d1 +-h d2, h = 1e-4: truncation
/// ~h^2 |f''''| = 1e-8 |f''''|, rounding ~1e-19 |f| / h^2 = 1e-11 |f|.
template <class R>
bool fd2(R r, const point& p, const point& d1, const point& d2, long double& out) {
  const long double h = 1e-4L;
  const sample c = eval_ref(r, p), pp = eval_ref(r, p, h, &d1, h, &d2), pm = eval_ref(r, p, h, &d1, -h, &d2),
               mp = eval_ref(r, p, -h, &d1, h, &d2), mm = eval_ref(r, p, -h, &d1, -h, &d2);
  for (const sample& s : {pp, pm, mp, mm})
    if (s.sig != c.sig) return false;
  out = (pp.value - pm.value - mp.value + mm.value) / (4 * h * h);
  return true;
}
inline point unit(int k) {
  point d{0, 0, {0, 0, 0}};
  if (k == 0) d.x = 1;
  else if (k == 1) d.y = 1;
  else d.v[static_cast<std::size_t>(k - 2)] = 1;
  return d;
}

// Tolerances, relative to 1 + |want| (each with its reason):
/// calx on doubles against the long double reference: the same ops, rounded to double: a few
/// hundred roundings of 1.1e-16, amplified by the conditioning of bounded programs.
inline constexpr double tol_value = 1e-10;
/// Two calx evaluations of the same function (plain call, traced program, vmap lanes, the
/// value of value_and_grad/jvp): the same ops up to fma contraction, operand order and, in
/// the SIMD loop, xsimd's libm (a few ulp per call).
inline constexpr double tol_same = 1e-11;
/// Two calx derivative programs of the same quantity (jacrev vs grad, jacfwd vs jacrev, vmap
/// of grad vs grad): cotangents and tangents summed in another order, through cancelling
/// terms.
inline constexpr double tol_modes = 1e-9;
/// A calx first derivative against long double central differences (fd1): truncation ~2e-11
/// |f'''| with f''' of bounded programs below ~1e3, and calx's double rounding.
inline constexpr double tol_fd1 = 1e-6;
/// A calx second derivative against long double second differences (fd2): truncation ~1e-8
/// |f''''|.
inline constexpr double tol_fd2 = 2e-5;

/// Which groups of checks a program gets (compile time grows with each transform; the
/// generator spreads the groups over the programs so that every one is exercised often).
enum checks : unsigned {
  basic = 0,            // always: value vs reference, trace, grad (jacfwd) vs differences, jvp
  reverse_extra = 1,    // value_and_grad and vjp's pullback against grad
  modes = 2,            // jacrev and jacfwd against grad
  second_order = 4,     // hessian (jacfwd of jacfwd) against second differences
  batched = 8,          // vmap(f) and vmap(grad f) (vmap(jacfwd f)) over 13 values of x
};

/// Runs the checks on one program: `Reverse` is false for programs with a while_loop (calx,
/// as JAX, refuses reverse mode through it: forward mode stands in); `Groups` is an or of
/// `checks`.
template <bool Reverse, unsigned Groups, class F, class R>
void run_program(int id, const char* src, F f, R r) {
  ++totals.programs;
  int pt = 0;
  const auto derivatives = [f](double x, double y, const calx::tensor<double, 3>& v) {
    if constexpr (Reverse) return flat(calx::grad(f, calx::argnums<0, 1, 2>)(x, y, v));
    else return flat(calx::jacfwd(f, calx::argnums<0, 1, 2>)(x, y, v));
  };
  for (const point& p : points) {
    const auto v = tensor_of(p.v);
    const sample c = eval_ref(r, p);
    // A decision of the reference within 1e-9 (relative) of its switch point may be taken
    // the other way in double: nothing is compared with the reference there.
    const bool near_switch = c.margin < 1e-9L;
    const double value = num(f(p.x, p.y, v));
    if (near_switch) ++totals.skipped;
    else check(id, src, "value (double) vs long double reference", pt, value, c.value, tol_value);
    check(id, src, "calx::trace(f)(...) vs f(...)", pt, num(calx::trace(f, p.x, p.y, v)(p.x, p.y, v)), value, tol_same);

    // First derivatives, against central differences of the reference (per argument leaf).
    const std::vector<double> grads = derivatives(p.x, p.y, v);  // d/dx, d/dy, d/dv[0..2]
    const char* first = Reverse ? "grad vs central difference" : "jacfwd vs central difference";
    for (int k = 0; k < 5; ++k) {
      long double want;
      if (near_switch || !fd1(r, p, unit(k), want)) {
        ++totals.skipped;
        continue;
      }
      const std::string what = std::string(first) + " d/" + (k == 0 ? "x" : k == 1 ? "y" : "v[" + std::to_string(k - 2) + "]");
      check(id, src, what.c_str(), pt, grads[static_cast<std::size_t>(k)], want, tol_fd1);
    }
    {
      const auto [jv_value, jv_tangent] =
          calx::jvp(f, std::tuple{p.x, p.y, v}, std::tuple{tangent.x, tangent.y, tensor_of(tangent.v)});
      check(id, src, "jvp value vs f(...)", pt, num(jv_value), value, tol_same);
      long double want;
      if (!near_switch && fd1(r, p, tangent, want))
        check(id, src, "jvp tangent vs central difference", pt, num(jv_tangent), want, tol_fd1);
      else
        ++totals.skipped;
      double dot = 0;
      for (int k = 0; k < 5; ++k)
        dot += grads[static_cast<std::size_t>(k)] *
               (k == 0 ? tangent.x : k == 1 ? tangent.y : tangent.v[static_cast<std::size_t>(k - 2)]);
      check(id, src, "jvp tangent vs <derivatives, tangent>", pt, num(jv_tangent), dot, tol_modes);
    }
    if constexpr (Reverse && (Groups & reverse_extra)) {
      const auto [vg_value, vg_grads] = calx::value_and_grad(f, calx::argnums<0, 1, 2>)(p.x, p.y, v);
      check(id, src, "value_and_grad value vs f(...)", pt, num(vg_value), value, tol_same);
      check_all(id, src, "value_and_grad grads vs grad", pt, flat(vg_grads), grads, tol_same);
      const auto [vjp_value, pullback] = calx::vjp(f, p.x, p.y, v);
      check(id, src, "vjp value vs f(...)", pt, num(vjp_value), value, tol_same);
      using out_t = std::remove_cvref_t<decltype(vjp_value)>;
      check_all(id, src, "vjp pullback(1) vs grad", pt, flat(pullback(out_t(1.0))), grads, tol_modes);
    }
    if constexpr (Groups & modes) {
      if constexpr (Reverse)
        check_all(id, src, "jacfwd vs grad", pt, flat(calx::jacfwd(f, calx::argnums<0, 1, 2>)(p.x, p.y, v)), grads,
                  tol_modes);
      if constexpr (Reverse)
        check_all(id, src, "jacrev vs grad", pt, flat(calx::jacrev(f, calx::argnums<0, 1, 2>)(p.x, p.y, v)), grads,
                  tol_modes);
      else  // reverse mode is refused through while_loop: linearize stands in beside jacfwd
        check(id, src, "linearize(f)(t) vs <jacfwd, t>", pt,
              num(calx::linearize(f, p.x, p.y, v).second(tangent.x, tangent.y, tensor_of(tangent.v))),
              grads[0] * tangent.x + grads[1] * tangent.y + grads[2] * tangent.v[0] + grads[3] * tangent.v[1] +
                  grads[4] * tangent.v[2],
              tol_modes);
    }

    // Second derivatives, against second differences of the reference.
    if constexpr (Groups & second_order) {
      std::vector<double> h;  // d2/dx2, d2/dxdy, d2/dydx, d2/dy2
      if constexpr (Reverse) h = flat(calx::hessian(f, calx::argnums<0, 1>)(p.x, p.y, v));
      else h = flat(calx::jacfwd(calx::jacfwd(f, calx::argnums<0, 1>), calx::argnums<0, 1>)(p.x, p.y, v));
      const char* names[] = {"d2/dx2", "d2/dxdy", "d2/dydx", "d2/dy2"};
      for (int k = 0; k < 4; ++k) {
        long double want;
        if (near_switch || !fd2(r, p, unit(k / 2), unit(k % 2), want)) {
          ++totals.skipped;
          continue;
        }
        const std::string what =
            std::string(Reverse ? "hessian " : "jacfwd(jacfwd) ") + names[k] + " vs second difference";
        check(id, src, what.c_str(), pt, h[static_cast<std::size_t>(k)], want, tol_fd2);
      }
    }

    // vmap over 13 values of x (y and v broadcast), against the per-sample calls.
    if constexpr (Groups & batched) {
      std::vector<double> xs;
      for (int i = 0; i < 13; ++i) xs.push_back(p.x - 0.6 + 0.1 * i);
      const auto values = calx::vmap(f, calx::in_axes<0, calx::none, calx::none>)(xs, p.y, v);
      std::vector<double> got, want;
      for (std::size_t i = 0; i < xs.size(); ++i) got.push_back(num(values[i])), want.push_back(num(f(xs[i], p.y, v)));
      check_all(id, src, "vmap(f) vs f per sample", pt, got, want, tol_same);
      got.clear(), want.clear();
      const auto slope = [f] {
        if constexpr (Reverse) return calx::grad(f);
        else return calx::jacfwd(f);
      }();
      const auto slopes = calx::vmap(slope, calx::in_axes<0, calx::none, calx::none>)(xs, p.y, v);
      for (std::size_t i = 0; i < xs.size(); ++i)
        got.push_back(num(slopes[i])), want.push_back(derivatives(xs[i], p.y, v)[0]);
      check_all(id, src, Reverse ? "vmap(grad(f)) vs grad(f) per sample" : "vmap(jacfwd(f)) vs jacfwd(f) per sample", pt,
                got, want, tol_modes);
    }
    ++pt;
  }
}

inline int report(const char* name) {
  std::printf("fuzz: %ld programs, %ld checks, %ld failures (%ld finite differences skipped at switch points) [%s]\n",
              totals.programs, totals.checks, totals.failures, totals.skipped, name);
  return totals.failures > 0 ? 1 : 0;
}

}  // namespace fuzz

#endif  // CALX_TESTS_FUZZ_FUZZ_HPP
