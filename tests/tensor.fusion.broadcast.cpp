/// @file tests/tensor.fusion.broadcast.cpp
/// @brief Fusion of broadcasts of tensors, reshapes and reductions over one axis in
/// straight-line code (detail/exec/fusion.hpp): kmeans written with broadcast tensors is
/// one loop that writes no tensor of points x centroids x coordinates, in its primal and in
/// its gradient; a broadcast of a computed value reads it from memory (it is not computed
/// once per copy); and fused programs compute what the same math does element by element,
/// in f32 and f64, over every axis, with rows that do and do not fill whole SIMD batches,
/// broadcasts that repeat runs of numbers and runs of one number, and batches that start
/// off a multiple of their width (a slice by one in front of a reshape); and slices and pads
/// along later axes (columns of a matrix, blocks of the flat index), which fuse too.

#include <calx/calx.hpp>

#include <_include/fusion_roles.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>

namespace {

using calx_test::count_role;
using calx_test::fused_role;
using calx_test::program;
using calx_test::roles;

/// Every point against every centroid, the nearest by `min` (GradBench's kmeans cost).
template <std::size_t N, std::size_t K, std::size_t D>
constexpr auto kmeans = [](const auto& points, const auto& centroids) {
  const auto d = calx::reshape<N, 1, D>(points) - calx::reshape<1, K, D>(centroids);
  return calx::sum(calx::min(calx::sum(d * d, calx::axis<2>), calx::axis<1>));
};

/// Reductions over each axis of chains of x (P, Q, R), y (Q, R) and z (P, Q, 1), y and z
/// broadcast to (P, Q, R): each reduction folds its own chain.
template <std::size_t P, std::size_t Q, std::size_t R>
constexpr auto axes = [](const auto& x, const auto& y, const auto& z) {
  const auto d = x - z;
  return std::tuple{calx::sum(x * y + z, calx::axis<0>), calx::max(x * y - z, calx::axis<1>),
                    calx::min(calx::exp(x + y * z), calx::axis<2>), calx::sum(calx::sum(d * d * y, calx::axis<2>), calx::axis<1>)};
};

/// Batches off alignment: a reshape of v[1:] (aligned batches of the reshape read v one
/// element on), and the product with a broadcast flattened and read from its second
/// element (the broadcast's batches start one element on).
template <std::size_t P, std::size_t Q, std::size_t R>
constexpr auto shifted = [](const auto& v, const auto& y) {
  const auto flat = calx::reshape<P * Q * R>(calx::reshape<P, Q, R>(calx::slice<0, P * Q * R>(v)) * y);
  return std::tuple{calx::sum(calx::reshape<P, Q, R>(calx::slice<1, P * Q * R + 1>(v)) * y, calx::axis<2>),
                    calx::slice<1, P * Q * R>(flat) * calx::slice<1, P * Q * R>(v)};
};

/// Reductions over an axis of a product in memory, inside the loops that read them.
constexpr auto of_product = [](const auto& a, const auto& b, const auto& v) {
  const auto m = calx::matmul(a, b);  // (40, 12)
  return std::tuple{calx::sum(m, calx::axis<1>) * 2.0 + v, calx::max(m, calx::axis<1>) - v, calx::min(m, calx::axis<0>)};
};

/// Slices and pads along later axes (blocks of the flat index, `blocked_shift`): a
/// concatenate of columns, a slice of a computed value, and slices of a 3-D tensor along
/// its second and third axes.
template <std::size_t P, std::size_t Q>
constexpr auto columns = [](const auto& m, const auto& x) {
  constexpr auto a1 = calx::axis<1>;
  return std::tuple{
      calx::concatenate(calx::slice<0, 1>(m, a1), calx::slice<1, Q>(m, a1) * calx::slice<0, Q - 1>(m, a1), a1),
      calx::slice<1, Q - 1>(calx::exp(m), a1) * 2.0,
      calx::concatenate(calx::slice<0, 3>(m, a1) * 2.0, calx::slice<3, Q>(m, a1) + 1.0, a1),
      calx::slice<1, 4>(x, a1) + calx::slice<0, 3>(x, a1),  // x: (P, 4, 4)
      calx::slice<1, 4>(x, calx::axis<2>) * calx::slice<0, 3>(x, calx::axis<2>)};
};

/// exp(x), broadcast over 16 rows: computed once, not once per row.
constexpr auto computed = [](const auto& x, const auto& m) { return m * calx::exp(x); };

TEST_CASE("fusion: broadcasts and reductions over an axis", "[tensor][fusion]") {
  // kmeans' cost: the reshapes, broadcasts, sub, mul and both axis reductions inside the
  // sum's loop; no register but the result's.
  using Pts = calx::tensor<double, 64, 8>;
  using Cs = calx::tensor<double, 5, 8>;
  constexpr const auto& a = roles<decltype(kmeans<64, 5, 8>), Pts, Cs>;
  STATIC_REQUIRE(count_role(a, fused_role::loop) == 1);
  STATIC_REQUIRE(count_role(a, fused_role::inside) == 8);
  STATIC_REQUIRE(program<decltype(kmeans<64, 5, 8>), Pts, Cs>.real_slots <= 1);
  // Its gradient writes out no value of 64 x 5 x 8 elements (the difference is read by the
  // distances and by the gradient: an op of values in memory, recomputed in both).
  constexpr auto grad = [](const auto& p, const auto& c) { return calx::grad(kmeans<64, 5, 8>, calx::argnums<1>)(p, c); };
  constexpr const auto& g = program<decltype(grad), Pts, Cs>;
  constexpr int written = [] {
    int k = 0;
    for (const auto& n : g.nodes) k += n.size() == 64 * 5 * 8 && n.slot >= 0 ? 1 : 0;
    return k;
  }();
  STATIC_REQUIRE(written == 0);
  STATIC_REQUIRE(g.real_slots < 64 * 5 * 4);
  // exp(x) is written once; its broadcast over the rows reads it inside the product's loop.
  constexpr const auto& c = program<decltype(computed), calx::tensor<double, 64>, calx::tensor<double, 16, 64>>;
  constexpr bool exp_written_once = [] {
    for (std::size_t j = 0; j < c.size; ++j)
      if (c.nodes[j].op == calx::detail::ref_of<calx::exp_op>()) return calx::detail::fusion_of<c>[j] != fused_role::inside;
    return false;
  }();
  STATIC_REQUIRE(exp_written_once);
  // The product is written out; each reduction of it runs inside its reader's loop.
  constexpr const auto& p =
      program<decltype(of_product), calx::tensor<double, 40, 5>, calx::tensor<double, 5, 12>, calx::tensor<double, 40>>;
  constexpr int reductions_inside = [] {
    int k = 0;
    for (std::size_t j = 0; j < p.size; ++j)
      k += calx::detail::fusable_reduction(p, j) && calx::detail::fusion_of<p>[j] == fused_role::inside ? 1 : 0;
    return k;
  }();
  STATIC_REQUIRE(reductions_inside == 2);
  // The min over the rows, an output, is a loop of its own over the product in memory (its
  // statement folded one number at a time; the loop folds SIMD batches along the rows).
  constexpr bool min_a_loop = [] {
    for (std::size_t j = 0; j < p.size; ++j)
      if (p.nodes[j].op == calx::detail::ref_of<calx::reduce_min_op>()) return calx::detail::fusion_of<p>[j] == fused_role::loop;
    return false;
  }();
  STATIC_REQUIRE(min_a_loop);
  // Slices and pads along later axes fuse: each output one loop (five); x's slices read it
  // in place, exp(m) fuses into its slice. Alone: the two inputs, two constants, and the
  // third output's first piece (a slice, a broadcast and a product of 24 elements, below 32).
  constexpr const auto& s = roles<decltype(columns<8, 8>), calx::tensor<double, 8, 8>, calx::tensor<double, 8, 4, 4>>;
  STATIC_REQUIRE(count_role(s, fused_role::loop) == 5);
  STATIC_REQUIRE(count_role(s, fused_role::alone) == 2 + 2 + 3);
  STATIC_REQUIRE(count_role(calx::detail::fusion_of<c>, fused_role::inside) == 1);
}

/// Values that are neither symmetric nor tied: element e of a tensor of `size`.
template <class T>
T wobble(std::size_t e, std::size_t size, double shift) {
  return T(std::sin(0.7 * double(e) + shift) * (1.0 + double(e) / double(size)));
}

/// The central difference of `value()` in element e of `arg`, step 1e-6.
template <class Value, class Arg>
double central_difference(const Value& value, Arg& arg, std::size_t e) {
  const double h = 1e-6, keep = arg.data()[e];
  arg.data()[e] = keep + h;
  const double up = value();
  arg.data()[e] = keep - h;
  const double down = value();
  arg.data()[e] = keep;
  return (up - down) / (2 * h);
}

template <class T, std::size_t P, std::size_t Q, std::size_t R>
void check_axes() {
  calx::tensor<T, P, Q, R> x;
  calx::tensor<T, Q, R> y;
  calx::tensor<T, P, Q, 1> z;
  for (std::size_t e = 0; e < P * Q * R; ++e) x.data()[e] = wobble<T>(e, P * Q * R, 0.1);
  for (std::size_t e = 0; e < Q * R; ++e) y.data()[e] = wobble<T>(e, Q * R, 1.3);
  for (std::size_t e = 0; e < P * Q; ++e) z.data()[e] = wobble<T>(e, P * Q, 2.9);
  const auto [s0, m1, n2, ss] = calx::trace(axes<P, Q, R>, x, y, z)(x, y, z);
  auto X = [&](std::size_t p, std::size_t q, std::size_t r) { return double(x.data()[(p * Q + q) * R + r]); };
  auto Y = [&](std::size_t q, std::size_t r) { return double(y.data()[q * R + r]); };
  auto Z = [&](std::size_t p, std::size_t q) { return double(z.data()[p * Q + q]); };
  auto t = [&](std::size_t p, std::size_t q, std::size_t r) { return X(p, q, r) * Y(q, r) + Z(p, q); };
  auto u = [&](std::size_t p, std::size_t q, std::size_t r) { return X(p, q, r) * Y(q, r) - Z(p, q); };
  auto w = [&](std::size_t p, std::size_t q, std::size_t r) { return std::exp(X(p, q, r) + Y(q, r) * Z(p, q)); };
  auto s = [&](std::size_t p, std::size_t q, std::size_t r) {
    return (X(p, q, r) - Z(p, q)) * (X(p, q, r) - Z(p, q)) * Y(q, r);
  };
  // Sums in other orders than left to right: rounding of the sums' magnitudes.
  const double eps = sizeof(T) == 4 ? 2e-6 : 4e-15;
  auto near = [&](double got, double want, double scale) { return std::abs(got - want) <= eps * scale; };
  for (std::size_t q = 0; q < Q; ++q)
    for (std::size_t r = 0; r < R; ++r) {
      double s = 0, scale = 0;
      for (std::size_t p = 0; p < P; ++p) s += t(p, q, r), scale += std::abs(t(p, q, r));
      INFO("sum over axis 0 at " << q << ", " << r);
      CHECK(near(double(s0.data()[q * R + r]), s, scale + 1));
    }
  for (std::size_t p = 0; p < P; ++p) {
    double sum = 0, scale = 0;
    for (std::size_t q = 0; q < Q; ++q)
      for (std::size_t r = 0; r < R; ++r) sum += s(p, q, r), scale += std::abs(s(p, q, r));
    INFO("sum of sums at " << p);
    CHECK(near(double(ss.data()[p]), sum, scale + 1));
    for (std::size_t r = 0; r < R; ++r) {
      double m = -std::numeric_limits<double>::infinity();
      for (std::size_t q = 0; q < Q; ++q) m = std::max(m, u(p, q, r));
      INFO("max over axis 1 at " << p << ", " << r);
      CHECK(near(double(m1.data()[p * R + r]), m, std::abs(m) + 1));
    }
    for (std::size_t q = 0; q < Q; ++q) {
      double m = std::numeric_limits<double>::infinity();
      for (std::size_t r = 0; r < R; ++r) m = std::min(m, w(p, q, r));
      INFO("min of exp over axis 2 at " << p << ", " << q);
      // calx's SIMD exp: a few ulps (docs/performance.md).
      CHECK(near(double(n2.data()[p * Q + q]), m, 4 * (m + 1)));
    }
  }
  // v[1:] reshaped: every batch of the reshape reads v one element off its alignment.
  calx::tensor<T, P * Q * R + 1> v;
  for (std::size_t e = 0; e < P * Q * R + 1; ++e) v.data()[e] = wobble<T>(e, P * Q * R, 0.5);
  const auto [sh, off] = calx::trace(shifted<P, Q, R>, v, y)(v, y);
  for (std::size_t e = 1; e < P * Q * R; ++e) {
    INFO("flat product at " << e);
    const double want = double(v.data()[e]) * double(y.data()[e % (Q * R)]) * double(v.data()[e]);
    CHECK(near(double(off.data()[e - 1]), want, std::abs(want)));
  }
  for (std::size_t p = 0; p < P; ++p)
    for (std::size_t q = 0; q < Q; ++q) {
      double s = 0, scale = 0;
      for (std::size_t r = 0; r < R; ++r) {
        const double u = double(v.data()[(p * Q + q) * R + r + 1]) * double(y.data()[q * R + r]);
        s += u, scale += std::abs(u);
      }
      INFO("shifted row " << p << ", " << q);
      CHECK(near(double(sh.data()[p * Q + q]), s, scale + 1));
    }
}

template <class T, std::size_t N, std::size_t K, std::size_t D>
void check_kmeans() {
  calx::tensor<T, N, D> points;
  calx::tensor<T, K, D> centroids;
  for (std::size_t e = 0; e < N * D; ++e) points.data()[e] = wobble<T>(e, N * D, 0.2);
  for (std::size_t e = 0; e < K * D; ++e) centroids.data()[e] = wobble<T>(3 * e, K * D, 1.1);
  // By hand: each point's nearest centroid, d/dc |p - c|^2 = 2 (c - p) on it.
  double cost = 0, scale = 0;
  std::array<double, K * D> want{};
  for (std::size_t i = 0; i < N; ++i) {
    std::size_t best = 0;
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < K; ++c) {
      double d2 = 0;
      for (std::size_t j = 0; j < D; ++j) {
        const double d = double(points.data()[i * D + j]) - double(centroids.data()[c * D + j]);
        d2 += d * d;
      }
      if (d2 < nearest) nearest = d2, best = c;
    }
    cost += nearest, scale += nearest;
    for (std::size_t j = 0; j < D; ++j)
      want[best * D + j] += 2 * (double(centroids.data()[best * D + j]) - double(points.data()[i * D + j]));
  }
  const double eps = sizeof(T) == 4 ? 4e-6 : 1e-14;  // sums in other orders
  const T got = calx::trace(kmeans<N, K, D>, points, centroids)(points, centroids);
  INFO("kmeans " << N << " x " << K << " x " << D);
  CHECK(std::abs(double(got) - cost) <= eps * (scale + 1));
  const auto [v, g] = calx::value_and_grad(kmeans<N, K, D>, calx::argnums<1>)(points, centroids);
  CHECK(std::abs(double(v) - cost) <= eps * (scale + 1));
  for (std::size_t e = 0; e < K * D; ++e) {
    INFO("d cost / d centroid element " << e);
    CHECK(std::abs(double(g.data()[e]) - want[e]) <= eps * 4 * (scale + 1));
  }
}

template <class T, std::size_t P, std::size_t Q>
void check_columns() {
  calx::tensor<T, P, Q> m;
  calx::tensor<T, P, 4, 4> x;
  for (std::size_t e = 0; e < P * Q; ++e) m.data()[e] = wobble<T>(e, P * Q, 0.4);
  for (std::size_t e = 0; e < P * 16; ++e) x.data()[e] = wobble<T>(e, P * 16, 1.9);
  const auto [a, b, c, d, f] = calx::trace(columns<P, Q>, m, x)(m, x);
  auto M = [&](std::size_t i, std::size_t j) { return double(m.data()[i * Q + j]); };
  auto X = [&](std::size_t i, std::size_t j, std::size_t k) { return double(x.data()[(i * 4 + j) * 4 + k]); };
  const double eps = sizeof(T) == 4 ? 2e-6 : 4e-15;
  auto near = [&](double got, double want) { return std::abs(got - want) <= 4 * eps * (std::abs(want) + 1); };
  for (std::size_t i = 0; i < P; ++i) {
    for (std::size_t j = 0; j < Q; ++j) {
      INFO(P << " x " << Q << " at " << i << ", " << j);
      CHECK(near(double(a.data()[i * Q + j]), j == 0 ? M(i, 0) : M(i, j) * M(i, j - 1)));
      CHECK(near(double(c.data()[i * Q + j]), j < 3 ? 2 * M(i, j) : M(i, j) + 1));
      if (j + 2 < Q) CHECK(near(double(b.data()[i * (Q - 2) + j]), 2 * std::exp(M(i, j + 1))));
    }
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        INFO("3-D at " << i << ", " << j << ", " << k);
        CHECK(near(double(d.data()[(i * 3 + j) * 4 + k]), X(i, j + 1, k) + X(i, j, k)));
        CHECK(near(double(f.data()[(i * 4 + k) * 3 + j]), X(i, k, j + 1) * X(i, k, j)));
      }
  }
}

template <class T>
void check_of_product() {
  calx::tensor<T, 40, 5> a;
  calx::tensor<T, 5, 12> b;
  calx::tensor<T, 40> v;
  for (std::size_t e = 0; e < 200; ++e) a.data()[e] = wobble<T>(e, 200, 0.3);
  for (std::size_t e = 0; e < 60; ++e) b.data()[e] = wobble<T>(e, 60, 1.7);
  for (std::size_t e = 0; e < 40; ++e) v.data()[e] = wobble<T>(e, 40, 2.2);
  const auto [s, m, low] = calx::trace(of_product, a, b, v)(a, b, v);
  const double eps = sizeof(T) == 4 ? 4e-6 : 1e-14;
  auto ab = [&](std::size_t i, std::size_t j) {
    double ij = 0;
    for (std::size_t k = 0; k < 5; ++k) ij += double(a.data()[i * 5 + k]) * double(b.data()[k * 12 + j]);
    return ij;
  };
  for (std::size_t j = 0; j < 12; ++j) {
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < 40; ++i) least = std::min(least, ab(i, j));
    INFO("column " << j);
    CHECK(std::abs(double(low.data()[j]) - least) <= eps * 4 * (std::abs(least) + 1));
  }
  for (std::size_t i = 0; i < 40; ++i) {
    double sum = 0, scale = 0, best = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < 12; ++j) {
      double ij = 0;
      for (std::size_t k = 0; k < 5; ++k) ij += double(a.data()[i * 5 + k]) * double(b.data()[k * 12 + j]);
      sum += ij, scale += std::abs(ij), best = std::max(best, ij);
    }
    INFO("row " << i);
    CHECK(std::abs(double(s.data()[i]) - (2 * sum + double(v.data()[i]))) <= eps * 4 * (scale + 1));
    CHECK(std::abs(double(m.data()[i]) - (best - double(v.data()[i]))) <= eps * 4 * (scale + 1));
  }
}

TEST_CASE("fusion: slices and pads along later axes compute the math", "[tensor][fusion]") {
  check_columns<double, 8, 8>();
  check_columns<double, 6, 13>();
  check_columns<double, 40, 5>();
  check_columns<float, 8, 8>();
  check_columns<float, 5, 17>();
  check_columns<float, 3, 30>();
}

TEST_CASE("fusion: broadcasts and reductions over an axis compute the math", "[tensor][fusion]") {
  check_of_product<double>();
  check_of_product<float>();
  check_axes<double, 6, 7, 8>();
  check_axes<double, 5, 4, 12>();
  check_axes<double, 33, 3, 3>();
  check_axes<double, 4, 5, 6>();
  check_axes<float, 6, 7, 8>();
  check_axes<float, 4, 16, 16>();
  check_axes<float, 5, 3, 5>();
  check_axes<float, 3, 4, 10>();
  check_kmeans<double, 64, 5, 8>();
  check_kmeans<double, 61, 3, 5>();
  check_kmeans<float, 64, 5, 8>();
  check_kmeans<float, 100, 10, 16>();
  check_kmeans<float, 37, 4, 3>();
}

TEST_CASE("fusion: gradients through broadcasts and reductions over an axis", "[tensor][fusion]") {
  // Against central differences of the same function (differentiable here: no ties).
  using X = calx::tensor<double, 6, 7, 8>;
  using Y = calx::tensor<double, 7, 8>;
  using Z = calx::tensor<double, 6, 7, 1>;
  X x;
  Y y;
  Z z;
  for (std::size_t e = 0; e < 336; ++e) x.data()[e] = wobble<double>(e, 336, 0.1);
  for (std::size_t e = 0; e < 56; ++e) y.data()[e] = wobble<double>(e, 56, 1.3);
  for (std::size_t e = 0; e < 42; ++e) z.data()[e] = wobble<double>(e, 42, 2.9);
  const auto loss = [](const auto& a, const auto& b, const auto& c) {
    const auto [s0, m1, n2, ss] = axes<6, 7, 8>(a, b, c);
    return calx::sum(s0 * s0) + calx::sum(m1) + calx::sum(n2) + calx::sum(ss) * 0.01;
  };
  const auto [gx, gy, gz] = calx::grad(loss, calx::argnums<0, 1, 2>)(x, y, z);
  auto fd = [&](auto& arg, std::size_t e) { return central_difference([&] { return double(loss(x, y, z)); }, arg, e); };
  // Central differences of step 1e-6 on values of order 10: good to about 1e-7.
  for (std::size_t e = 0; e < 336; e += 5) {
    INFO("x element " << e);
    CHECK(std::abs(double(gx.data()[e]) - fd(x, e)) <= 1e-6 * (1 + std::abs(fd(x, e))));
  }
  for (std::size_t e = 0; e < 56; ++e) {
    INFO("y element " << e);
    CHECK(std::abs(double(gy.data()[e]) - fd(y, e)) <= 1e-6 * (1 + std::abs(fd(y, e))));
  }
  for (std::size_t e = 0; e < 42; ++e) {
    INFO("z element " << e);
    CHECK(std::abs(double(gz.data()[e]) - fd(z, e)) <= 1e-6 * (1 + std::abs(fd(z, e))));
  }
}

TEST_CASE("fusion: gradients through slices and pads along later axes", "[tensor][fusion]") {
  // Their transposes are pads and slices along the same axes.
  calx::tensor<double, 6, 13> m;
  calx::tensor<double, 6, 4, 4> x;
  for (std::size_t e = 0; e < 78; ++e) m.data()[e] = wobble<double>(e, 78, 0.4);
  for (std::size_t e = 0; e < 96; ++e) x.data()[e] = wobble<double>(e, 96, 1.9);
  const auto loss = [](const auto& a, const auto& b) {
    const auto [p, q, r, s, t] = columns<6, 13>(a, b);
    return calx::sum(p * p) + calx::sum(q) + calx::sum(r * r) + calx::sum(s * s) + calx::sum(t);
  };
  const auto [gm, gx] = calx::grad(loss, calx::argnums<0, 1>)(m, x);
  auto fd = [&](auto& arg, std::size_t e) { return central_difference([&] { return double(loss(m, x)); }, arg, e); };
  // Central differences of step 1e-6 on values of order 100: good to about 1e-7.
  for (std::size_t e = 0; e < 78; ++e) {
    INFO("m element " << e);
    CHECK(std::abs(double(gm.data()[e]) - fd(m, e)) <= 1e-6 * (1 + std::abs(fd(m, e))));
  }
  for (std::size_t e = 0; e < 96; ++e) {
    INFO("x element " << e);
    CHECK(std::abs(double(gx.data()[e]) - fd(x, e)) <= 1e-6 * (1 + std::abs(fd(x, e))));
  }
}

}  // namespace
