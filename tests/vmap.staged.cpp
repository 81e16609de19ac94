/// @file tests/vmap.staged.cpp
/// @brief `vmap(...).into(range of result structures)` where each sample's structure is
/// large: the SIMD executor stages a group's outputs and writes them sample by sample, an
/// outer product formed row by row at the write (detail/exec/staged_outputs.hpp). Checked
/// exactly against the same program run one sample at a time (a batch of one is a partial
/// group: its lanes are written without the stage, from the same lane arithmetic), and
/// against closed forms in long double: per-sample gradients of a small MLP whose sizes
/// leave tails of SIMD batches and of the contraction's four-row blocks, over several chunks
/// and two threads; an outer product with an unbatched operand that is also read by the
/// program, and a result written twice.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <boost/hana.hpp>

#include <cmath>
#include <cstddef>
#include <span>
#include <tuple>
#include <vector>

// Hidden 9 (two four-row blocks and one row), inputs 20 (f32 lanes: one batch and 4; f64:
// two and 4): 199 numbers a sample.
struct net32 {
  BOOST_HANA_DEFINE_STRUCT(net32, (calx::tensor<float, 9, 20>, w1), (calx::tensor<float, 9>, b1),
                           (calx::tensor<float, 1, 9>, w2), (calx::tensor<float, 1>, b2));
};
struct net64 {
  BOOST_HANA_DEFINE_STRUCT(net64, (calx::tensor<double, 9, 20>, w1), (calx::tensor<double, 9>, b1),
                           (calx::tensor<double, 1, 9>, w2), (calx::tensor<double, 1>, b2));
};

namespace {

template <class T>
using net_t = std::conditional_t<sizeof(T) == 4, net32, net64>;

constexpr auto loss = [](const auto& p, const auto& x, const auto& y) {
  auto h = calx::tanh(calx::matvec(p.w1, x) + p.b1);
  auto d = (calx::matvec(p.w2, h) + p.b2)(0) - y;
  return d * d;
};

template <class T>
T sample_value(std::size_t i, std::size_t k) {  // deterministic, in [-1, 1)
  return static_cast<T>(std::sin(0.37 * static_cast<double>(i) + 1.91 * static_cast<double>(k) + 0.2));
}

/// The gradient of `loss` for one sample, in long double.
template <class P, class X, class T>
P closed_form(const P& p, const X& x, T y) {
  long double h[9], out = p.b2[0];
  for (std::size_t i = 0; i < 9; ++i) {
    long double z = p.b1[i];
    for (std::size_t j = 0; j < 20; ++j) z += static_cast<long double>(p.w1[i * 20 + j]) * x[j];
    h[i] = std::tanh(z);
    out += static_cast<long double>(p.w2[i]) * h[i];
  }
  const long double d = 2 * (out - y);
  P g{};
  g.b2[0] = static_cast<T>(d);
  for (std::size_t i = 0; i < 9; ++i) {
    g.w2[i] = static_cast<T>(d * h[i]);
    const long double dz = d * p.w2[i] * (1 - h[i] * h[i]);
    g.b1[i] = static_cast<T>(dz);
    for (std::size_t j = 0; j < 20; ++j) g.w1[i * 20 + j] = static_cast<T>(dz * x[j]);
  }
  return g;
}

/// Every number of two parameter structures: `same` exactly, else within `tol` relative to
/// max(1, |b|).
template <class P, class T>
int differences(const P& a, const P& b, bool same, T tol) {
  int bad = 0;
  auto cmp = [&](T u, T v) {
    if (same ? !(u == v) : !(std::fabs(u - v) <= tol * std::fmax(T(1), std::fabs(v)))) ++bad;
  };
  for (std::size_t e = 0; e < 180; ++e) cmp(a.w1[e], b.w1[e]);
  for (std::size_t e = 0; e < 9; ++e) cmp(a.b1[e], b.b1[e]), cmp(a.w2[e], b.w2[e]);
  cmp(a.b2[0], b.b2[0]);
  return bad;
}

}  // namespace

TEMPLATE_TEST_CASE("vmap(grad).into(structures) writes each sample's gradient as the one-sample run does",
                   "[vmap][into][staged]", float, double) {
  using T = TestType;
  using P = net_t<T>;
  using X = calx::tensor<T, 20>;
  P p{};
  for (std::size_t e = 0; e < 180; ++e) p.w1[e] = T(0.3) * sample_value<T>(1000, e);
  for (std::size_t e = 0; e < 9; ++e) p.b1[e] = T(0.2) * sample_value<T>(2000, e), p.w2[e] = T(0.5) * sample_value<T>(3000, e);
  p.b2[0] = T(0.1);
  // Several chunks of samples (2048 each), and a last, partial group of lanes.
  for (std::size_t n : {std::size_t{37}, std::size_t{4096 + 37}}) {
    std::vector<X> xs(n);
    std::vector<T> ys(n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < 20; ++j) xs[i][j] = sample_value<T>(i, j);
      ys[i] = sample_value<T>(i, 99);
    }
    const auto per_sample = calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0, 0>);
    std::vector<P> staged(n), threaded(n), one(1);
    per_sample.into(staged)(p, xs, ys);
    per_sample.threads(2).into(threaded)(p, xs, ys);
    const T tol = sizeof(T) == 4 ? T(2e-5) : T(1e-13);  // one rounding a term in T, and tanh's
    int exact_bad = 0, closed_bad = 0, thread_bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      per_sample.into(std::span<P>(one))(p, std::span<const X>(&xs[i], 1), std::span<const T>(&ys[i], 1));
      exact_bad += differences(staged[i], one[0], true, T(0));
      thread_bad += differences(threaded[i], staged[i], true, T(0));
      closed_bad += differences(staged[i], closed_form(p, xs[i], ys[i]), false, tol);
    }
    INFO("samples: " << n);
    CHECK(exact_bad == 0);
    CHECK(thread_bad == 0);
    CHECK(closed_bad == 0);
  }
}

/// Parameters as a template struct: an outer product's gradient and a batched input that is
/// two results.
template <class T>
struct mix {
  BOOST_HANA_DEFINE_STRUCT(mix, (calx::tensor<T, 40, 7>, m), (calx::tensor<T, 40>, u), (calx::tensor<T, 40>, v));
};

namespace {
// d/dm = x c^T, an outer product with an unbatched operand (c); d/du = d/dv = x, the batched
// input itself, written twice.
constexpr auto bilinear = [](const auto& q, const auto& x, const auto& c) {
  return calx::dot(x, calx::matvec(q.m, c)) + calx::dot(q.u, x) + calx::dot(q.v, x);
};
}  // namespace

TEMPLATE_TEST_CASE("vmap(grad).into(structures): an outer product with an unbatched operand, an input written twice",
                   "[vmap][into][staged]", float, double) {
  using T = TestType;
  using X = calx::tensor<T, 40>;
  using C = calx::tensor<T, 7>;
  const std::size_t n = 53;
  std::vector<X> xs(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < 40; ++j) xs[i][j] = sample_value<T>(i, j);
  C c{};
  for (std::size_t q = 0; q < 7; ++q) c[q] = sample_value<T>(500, q);
  mix<T> q0{};
  for (std::size_t e = 0; e < 280; ++e) q0.m[e] = sample_value<T>(700, e);
  const auto per_sample = calx::vmap(calx::grad(bilinear), calx::in_axes<calx::none, 0, calx::none>);
  std::vector<mix<T>> out(n), one(1);
  per_sample.into(out)(q0, xs, c);
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    per_sample.into(std::span<mix<T>>(one))(q0, std::span<const X>(&xs[i], 1), c);
    for (std::size_t r = 0; r < 40; ++r) {
      for (std::size_t k = 0; k < 7; ++k)  // one rounding, as the program computes it
        bad += !(out[i].m[r * 7 + k] == xs[i][r] * c[k]) + !(out[i].m[r * 7 + k] == one[0].m[r * 7 + k]);
      bad += !(out[i].u[r] == xs[i][r]) + !(out[i].v[r] == xs[i][r]);
    }
  }
  CHECK(bad == 0);
}
