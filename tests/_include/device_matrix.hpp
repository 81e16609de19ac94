/// @file tests/_include/device_matrix.hpp
/// @brief The vmap test matrix on device memory: each case runs a function over
/// calx::device_span arguments (a CUDA kernel) and compares it with the same function called
/// on the host sample by sample (calx's straight-line code; the SIMD executor is not used
/// here, as nvcc cannot compile it: see docs/cuda.md): f64 to 1e-12 relative, f32 to 1e-5 (the CPU suite's
/// transcendental tolerance for float). One source for two builds: tests/vmap.device.cpp
/// compiles it with CALX_DEVICE_ON_HOST (the kernel's code run serially on the host, in
/// every CI run), tests/cuda/vmap_device.cu with nvcc (on a GPU). `check(name, ok, detail)`
/// records each comparison.
#ifndef CALX_TESTS_DEVICE_MATRIX_HPP
#define CALX_TESTS_DEVICE_MATRIX_HPP

#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace calx_device_test {

// Batch sizes: empty, one, around a block of 256 threads, several chunks of 2048 with a tail.
inline constexpr std::size_t sizes[] = {0, 1, 255, 256, 257, 5000};

inline constexpr auto f2 = [](auto x, auto y) {
  return calx::sin(x) * calx::exp(-0.5 * y * y) + calx::log1p(x * x) / (1.0 + calx::abs(y)) +
         calx::where(x < y, calx::tanh(x * y), calx::sqrt(y * y + 1.0));
};
inline constexpr auto point = [](const auto& p) {  // a structure in, a structure out
  const auto r = calx::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  return std::array{r, calx::atan2(p[1], p[0]) * p[2]};
};
inline constexpr auto f_arr = [](const auto& v) { return calx::exp(v[0]) * calx::cos(v[1]) + v[0] * v[1] * v[1]; };
inline constexpr auto with_jvp = [](auto x, auto y) { return calx::jvp(f2, std::tuple{x, y}, std::tuple{y, x}); };  // tangents (y, x)
inline constexpr auto user_f = [](auto x, auto y) { return user::softplus(x) * user::logaddexp(x, y) + user::softabs(y); };
// user_f with the user ops written out (their decompositions): the host reference, since
// logaddexp's own kernel is a host function that nvcc will not call from calx's code.
inline constexpr auto user_reference = [](auto x, auto y) {
  const auto softplus = [](auto v) { return calx::log1p(calx::exp(v)); };
  const auto logaddexp = calx::max(x, y) + calx::log1p(calx::exp(-calx::abs(x - y)));
  return softplus(x) * logaddexp + (softplus(y) + softplus(-y) - 1.3862943611198906);
};
inline constexpr auto per_sample = [](auto x, auto w) { return std::tuple{f2(x, w), w * w + 1.0}; };
// tests/vmap.cpp's functions: a polynomial, transcendental functions, selections (run on
// NaN, infinities and signed zeros too), three arguments.
inline constexpr auto poly = [](auto x) { return (x * x - 3.0) * x + 0.5 / (1.0 + x * x); };
inline constexpr auto transcendental = [](auto x) {
  return calx::sin(x) * calx::exp(-0.5 * x * x) + calx::log1p(x * x) + calx::tanh(x) + calx::erf(x) +
         calx::cos(3.0 * x);
};
inline constexpr auto select = [](auto x, auto y) {
  // A combined mask (issue 30): the and, or and not ops run in device code too.
  return calx::where(((x > y) && !(x < -1.0)) || (y > 2.0), x * y, calx::min(x, y) - 0.5 * calx::max(x, y)) +
         calx::abs(x - y);
};
inline constexpr auto three = [](auto x, auto y, auto z) { return x * y + z / (1.0 + y * y) - calx::sqrt(x * x + z * z); };
// calx::cond (one IR node, its branches sub-programs): on the device, as in the SIMD loop,
// both branches and a select; and calx::checkpoint, whose reverse mode recomputes.
inline constexpr auto branches = [](auto x, auto y) {
  return calx::cond(
      x < y, [](auto a, auto b) { return calx::sin(a) * b + a; }, [](auto a, auto b) { return a * a - calx::exp(-b); },
      x, y);
};
inline constexpr auto remat = [](auto x, auto y) { return calx::checkpoint(f2)(x, y) * x; };
inline constexpr auto loss = [](auto xs, auto w) {
  return calx::mean(calx::vmap(f2, calx::in_axes<0, calx::none>)(xs, w));
};

template <class T>
std::vector<T> samples(std::size_t n, double shift) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(-2.0 + 4.0 * static_cast<double>((i * 37 + 11) % 1009) / 1009.0 + shift);
  return v;
}

template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

/// The largest relative difference of `got` from `want` (numbers or std::arrays of them).
template <class X>
double difference(const X& got, const X& want) {
  if constexpr (std::is_arithmetic_v<X>) {
    if (got == want || (std::isnan(got) && std::isnan(want))) return 0;  // infinities, NaN
    return std::abs(static_cast<double>(got) - static_cast<double>(want)) / (1.0 + std::abs(static_cast<double>(want)));
  } else {
    double d = 0;
    for (std::size_t k = 0; k < got.size(); ++k) d = std::max(d, difference(got[k], want[k]));
    return d;
  }
}
template <class X, class W>
double column_difference(const std::vector<X>& got, const W& want) {
  if (got.size() != want.size()) return 1e300;
  double d = 0;
  for (std::size_t i = 0; i < got.size(); ++i) d = std::max(d, difference(got[i], static_cast<X>(want[i])));
  return d;
}

/// `f` on the host, sample by sample: f(cols[i]...) for each i.
template <class F, class... C>
auto each(const F& f, std::size_t n, const C&... cols) {
  std::vector<decltype(f(cols[0]...))> r;
  for (std::size_t i = 0; i < n; ++i) r.push_back(f(cols[i]...));
  return r;
}
/// Element `K` of each sample's tuple.
template <std::size_t K, class R>
auto part(const std::vector<R>& r) {
  std::vector<std::remove_cvref_t<decltype(std::get<K>(r[0]))>> c;
  for (const auto& x : r) c.push_back(std::get<K>(x));
  return c;
}

template <class Check>
void report(Check& check, const std::string& name, std::size_t n, double diff, double tol) {
  check(name + " (batch " + std::to_string(n) + ")", diff <= tol, "largest relative difference " + std::to_string(diff));
}

/// Every case, at every size, on stream `stream` (nullptr: the default stream).
template <class T, class Check>
void run_matrix(Check& check, calx::detail::stream_handle stream) {
  using calx::device_span;
  using calx::device_vector;
  const double tol = tolerance<T>();
  for (std::size_t n : sizes) {
    const std::vector<T> xs = samples<T>(n, 0.0), ys = samples<T>(n, 0.3);
    const device_vector<T> dx{xs}, dy{ys};
    const device_span<const T> x(dx), y(dy);

    {  // f(x, y), and the same with y broadcast
      device_vector<T> out(n), half(n);
      device_span<T> o(out), h(half);
      calx::vmap(f2).on(stream).into(o)(x, y);
      calx::vmap(f2, calx::in_axes<0, calx::none>).on(stream).into(h)(x, T(0.5));
      report(check, "vmap(f)", n, column_difference(out.to_host(), each(f2, n, xs, ys)), tol);
      report(check, "vmap(f, in_axes<0, none>)", n,
             column_difference(half.to_host(), each([](T a) { return f2(a, T(0.5)); }, n, xs)), tol);
    }
    {  // per-sample gradients (a tuple of columns), Hessians of std::array samples
      device_vector<T> gx(n), gy(n);
      device_span<T> a(gx), b(gy);
      calx::vmap(calx::grad(f2, calx::argnums<0, 1>)).on(stream).into(std::tuple{a, b})(x, y);
      const auto want = each(calx::grad(f2, calx::argnums<0, 1>), n, xs, ys);
      report(check, "vmap(grad(f, argnums<0, 1>)) d/dx", n, column_difference(gx.to_host(), part<0>(want)), tol);
      report(check, "vmap(grad(f, argnums<0, 1>)) d/dy", n, column_difference(gy.to_host(), part<1>(want)), tol);

      std::vector<std::array<T, 2>> vs(n);
      for (std::size_t i = 0; i < n; ++i) vs[i] = {xs[i], ys[i]};
      const device_vector<std::array<T, 2>> dv{vs};
      device_vector<std::array<std::array<T, 2>, 2>> hess(n);
      device_span<std::array<std::array<T, 2>, 2>> hs(hess);
      calx::vmap(calx::hessian(f_arr)).on(stream).into(hs)(device_span<const std::array<T, 2>>(dv));
      report(check, "vmap(hessian(f)) of std::array samples", n,
             column_difference(hess.to_host(), each(calx::hessian(f_arr), n, vs)), tol);
    }
    {  // structures: array-of-struct samples in, a std::array per sample out, and the same
       // result into a structure of columns
      std::vector<std::array<T, 3>> ps(n);
      for (std::size_t i = 0; i < n; ++i) ps[i] = {xs[i], ys[i], T(0.25) * xs[i] + T(1)};
      const device_vector<std::array<T, 3>> dp{ps};
      device_vector<std::array<T, 2>> out(n);
      device_vector<T> c0(n), c1(n);
      device_span<std::array<T, 2>> o(out);
      std::array<device_span<T>, 2> cols{device_span<T>(c0), device_span<T>(c1)};
      calx::vmap(point).on(stream).into(o)(device_span<const std::array<T, 3>>(dp));
      calx::vmap(point).on(stream).into(cols)(device_span<const std::array<T, 3>>(dp));
      const auto want = each(point, n, ps);
      report(check, "vmap(f) of std::array samples", n, column_difference(out.to_host(), want), tol);
      std::vector<T> w0(n), w1(n);
      for (std::size_t i = 0; i < n; ++i) {
        w0[i] = want[i][0];
        w1[i] = want[i][1];
      }
      report(check, "vmap(f) into a std::array of columns", n,
             std::max(column_difference(c0.to_host(), w0), column_difference(c1.to_host(), w1)), tol);
    }
    {  // jvp inside vmap (a pair of results), user ops (by their decompositions), out_axes none
      device_vector<T> v(n), t(n), u(n), s(n);
      device_span<T> vv(v), tt(t), uu(u), ss(s);
      calx::vmap(with_jvp).on(stream).into(std::pair{vv, tt})(x, y);
      const auto wj = each(with_jvp, n, xs, ys);
      report(check, "vmap(jvp) value", n, column_difference(v.to_host(), part<0>(wj)), tol);
      report(check, "vmap(jvp) tangent", n, column_difference(t.to_host(), part<1>(wj)), tol);
      calx::vmap(user_f).on(stream).into(uu)(x, y);
      report(check, "vmap(f) with user ops", n, column_difference(u.to_host(), each(user_reference, n, xs, ys)), tol);
      T once = 0;
      calx::vmap(per_sample, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>)
          .on(stream)
          .into(std::tuple<device_span<T>, T&>{ss, once})(x, T(0.75));
      const auto ws = each([](T a) { return std::get<0>(per_sample(a, T(0.75))); }, n, xs);
      report(check, "vmap(f, out_axes<0, none>) per sample", n, column_difference(s.to_host(), ws), tol);
      report(check, "vmap(f, out_axes<0, none>) once", n, difference(once, T(0.75 * 0.75 + 1.0)), tol);
    }
    {  // tests/vmap.cpp's functions; selections on special values too
      std::vector<T> sx = xs, sy = ys;
      for (std::size_t i = 0; i < n; ++i) {
        if (i % 11 == 3) sx[i] = std::numeric_limits<T>::quiet_NaN();
        if (i % 17 == 7) sx[i] = std::numeric_limits<T>::infinity();
        if (i % 19 == 2) sy[i] = -std::numeric_limits<T>::infinity();
        if (i % 23 == 4) sx[i] = T(-0.0), sy[i] = T(0.0);
        if (i % 29 == 6) sy[i] = sx[i];
      }
      const device_vector<T> dsx{sx}, dsy{sy};
      device_vector<T> o1(n), o2(n), o3(n), o4(n);
      device_span<T> a(o1), b(o2), c(o3), d(o4);
      calx::vmap(poly).on(stream).into(a)(x);
      calx::vmap(transcendental).on(stream).into(b)(x);
      calx::vmap(select).on(stream).into(c)(device_span<const T>(dsx), device_span<const T>(dsy));
      calx::vmap(three).on(stream).into(d)(x, y, x);
      report(check, "vmap(polynomial)", n, column_difference(o1.to_host(), each(poly, n, xs)), tol);
      report(check, "vmap(transcendental)", n, column_difference(o2.to_host(), each(transcendental, n, xs)), tol);
      report(check, "vmap(selections) on NaN, infinities, signed zeros", n,
             column_difference(o3.to_host(), each(select, n, sx, sy)), tol);
      report(check, "vmap(three arguments)", n, column_difference(o4.to_host(), each(three, n, xs, ys, xs)), tol);
    }
    {  // custom rules: custom_vjp and custom_jvp under vmap(grad)
      device_vector<T> g1(n), g2(n), g3(n);
      device_span<T> a(g1), b(g2), c(g3);
      calx::vmap(calx::grad(user::f_my_mul, calx::argnums<0, 1>)).on(stream).into(std::tuple{a, b})(x, y);
      calx::vmap(calx::grad(user::f_log1pexp)).on(stream).into(c)(x, y);
      const auto want = each(calx::grad(user::r_my_mul, calx::argnums<0, 1>), n, xs, ys);
      report(check, "vmap(grad(custom_vjp)) d/dx", n, column_difference(g1.to_host(), part<0>(want)), tol);
      report(check, "vmap(grad(custom_vjp)) d/dy", n, column_difference(g2.to_host(), part<1>(want)), tol);
      report(check, "vmap(grad(custom_jvp))", n, column_difference(g3.to_host(), each(calx::grad(user::r_log1pexp), n, xs, ys)), tol);
    }
    if (n > 0) {  // the gradient of a mean over device samples: sums over the batch
      const auto [l, g] = calx::value_and_grad(loss, calx::argnums<0, 1>)(x, T(1.5));
      const auto& [gx, gw] = g;
      // The host's value: the samples' values and gradients, averaged.
      const auto per = each(calx::value_and_grad(f2, calx::argnums<0, 1>), n, xs, std::vector<T>(n, T(1.5)));
      double hl = 0, hgw = 0;
      std::vector<T> hgx(n);
      for (std::size_t i = 0; i < n; ++i) {
        hl += std::get<0>(per[i]) / static_cast<double>(n);
        hgw += std::get<1>(std::get<1>(per[i])) / static_cast<double>(n);
        hgx[i] = std::get<0>(std::get<1>(per[i])) / static_cast<T>(n);
      }
      report(check, "value_and_grad(mean of vmap) value", n, difference(static_cast<double>(l), hl), tol);
      report(check, "value_and_grad(mean of vmap) d/dw", n, difference(static_cast<double>(gw), hgw), tol);
      report(check, "value_and_grad(mean of vmap) d/dxs", n, column_difference(gx.to_host(), hgx), tol);
      const auto [l2, g2] = calx::value_and_grad(loss, calx::argnums<0, 1>)(x, T(1.5));
      check("sums over device samples repeat bitwise (batch " + std::to_string(n) + ")",
            l2 == l && std::get<1>(g2) == gw, "");
    }
  }
}

/// The control-flow cases, at every size (a translation unit of their own under nvcc: with
/// the matrix above it passes the test TU budget): cond and its gradient, the gradient
/// through a checkpoint.
template <class T, class Check>
void run_control_flow(Check& check, calx::detail::stream_handle stream) {
  using calx::device_span;
  using calx::device_vector;
  const double tol = tolerance<T>();
  for (std::size_t n : sizes) {
    const std::vector<T> xs = samples<T>(n, 0.0), ys = samples<T>(n, 0.3);
    const device_vector<T> dx{xs}, dy{ys};
    const device_span<const T> x(dx), y(dy);
    {  // cond and its gradient, the gradient through a checkpoint
      device_vector<T> v(n), gx(n), gy(n), rx(n);
      device_span<T> a(v), b(gx), c(gy), d(rx);
      calx::vmap(branches).on(stream).into(a)(x, y);
      calx::vmap(calx::grad(branches, calx::argnums<0, 1>)).on(stream).into(std::tuple{b, c})(x, y);
      calx::vmap(calx::grad(remat)).on(stream).into(d)(x, y);
      const auto want = each(calx::grad(branches, calx::argnums<0, 1>), n, xs, ys);
      report(check, "vmap(cond)", n, column_difference(v.to_host(), each(branches, n, xs, ys)), tol);
      report(check, "vmap(grad(cond)) d/dx", n, column_difference(gx.to_host(), part<0>(want)), tol);
      report(check, "vmap(grad(cond)) d/dy", n, column_difference(gy.to_host(), part<1>(want)), tol);
      report(check, "vmap(grad(checkpoint))", n, column_difference(rx.to_host(), each(calx::grad(remat), n, xs, ys)), tol);
    }
  }
}

}  // namespace calx_device_test

#endif  // CALX_TESTS_DEVICE_MATRIX_HPP
