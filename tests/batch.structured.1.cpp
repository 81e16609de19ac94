/// @file tests/batch.structured.1.cpp
/// @brief Runtime batches of structured samples (issue 26, item 4), std::array, tuple and
/// Boost.Hana struct samples: grad of a function that reduces them, directly (components
/// are calx::batch_tracers) and through a vmap inside it. Tensors: batch.structured.0.cpp.
/// Oracles: per-sample derivatives by vmap(grad(f)) summed in a plain loop (the same math
/// as a sum of per-sample programs), closed forms, and central differences.

#include <_include/float_compare.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::batch_sizes;
using calx_test::check_column;
using calx_test::column_of;
using calx_test::sample;
using calx_test::batch_tolerance;
using calx_test::tolerance;

// ---- std::array samples ------------------------------------------------------------------

/// Used directly: each component of the batch is a calx::batch_tracer.
constexpr auto spring_energy = [](const auto& qs, auto k) {
  return calx::sum(k * qs[0] * qs[1] + calx::sin(qs[2]));
};
/// The same through a vmap inside: each sample a std::array<tracer, 3>.
constexpr auto spring_one = [](const auto& q, auto k) { return k * q[0] * q[1] + calx::sin(q[2]); };
constexpr auto spring_energy_mapped = [](const auto& qs, auto k) {
  return calx::sum(calx::vmap(spring_one, calx::in_axes<0, calx::none>)(qs, k));
};

TEMPLATE_TEST_CASE("grad of a sum over a batch of std::arrays: components, and a vmap inside", "[batch][array]", float,
                   double) {
  using T = TestType;
  const T k = T(1.25);
  for (std::size_t n : batch_sizes<T>()) {
    INFO("n = " << n);
    std::vector<std::array<T, 3>> qs(n);
    for (std::size_t i = 0; i < n; ++i)
      qs[i] = {sample<T>(i, -1, 1, 0), sample<T>(i, -1, 1, 1), sample<T>(i, -3, 3, 2)};
    double want_dk = 0, magnitude = 0;
    for (const auto& q : qs) want_dk += static_cast<double>(q[0]) * q[1], magnitude += std::abs(static_cast<double>(q[0]) * q[1]);
    for (int variant = 0; variant < 2; ++variant) {
      INFO((variant == 0 ? "components" : "vmap inside"));
      const auto [dq, dk] = variant == 0 ? calx::grad(spring_energy, calx::argnums<0, 1>)(qs, k)
                                         : calx::grad(spring_energy_mapped, calx::argnums<0, 1>)(qs, k);
      STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dq)>, calx::batched<std::array<T, 3>>>);
      REQUIRE(dq.size() == n);
      // k * q1 and k * q0 are one rounding each, as the closed form; cos within a few ulp.
      check_column("d/dq0", column_of(dq, [](const auto& g) { return g[0]; }), n, [&](std::size_t i) { return k * qs[i][1]; });
      check_column("d/dq1", column_of(dq, [](const auto& g) { return g[1]; }), n, [&](std::size_t i) { return k * qs[i][0]; });
      check_column("d/dq2", column_of(dq, [](const auto& g) { return g[2]; }), n,
                   [&](std::size_t i) { return std::cos(qs[i][2]); }, tolerance{8 * std::numeric_limits<T>::epsilon(), 0});
      CHECK(std::abs(static_cast<double>(dk) - want_dk) <= batch_tolerance<T>(n, magnitude));
    }
  }
}

constexpr auto pair_loss = [](const auto& ps, auto w) { return calx::sum(ps.first * w + calx::exp(ps.second)); };

TEMPLATE_TEST_CASE("grad of a sum over a batch of std::pairs", "[batch][tuple]", float, double) {
  using T = TestType;
  const T w = T(-0.75);
  for (std::size_t n : batch_sizes<T>()) {
    INFO("n = " << n);
    std::vector<std::pair<T, T>> ps(n);
    for (std::size_t i = 0; i < n; ++i) ps[i] = {sample<T>(i, -1, 1, 0), sample<T>(i, -2, 1, 1)};
    const auto [dps, dw] = calx::grad(pair_loss, calx::argnums<0, 1>)(std::span<const std::pair<T, T>>(ps), w);
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dps)>, calx::batched<std::pair<T, T>>>);
    REQUIRE(dps.size() == n);
    check_column("d/dfirst", column_of(dps, [](const auto& g) { return g.first; }), n, [&](std::size_t) { return w; });
    check_column("d/dsecond", column_of(dps, [](const auto& g) { return g.second; }), n,
                 [&](std::size_t i) { return std::exp(ps[i].second); }, tolerance{8 * std::numeric_limits<T>::epsilon(), 0});
    double want = 0, magnitude = 0;
    for (const auto& p : ps) want += static_cast<double>(p.first), magnitude += std::abs(static_cast<double>(p.first));
    CHECK(std::abs(static_cast<double>(dw) - want) <= batch_tolerance<T>(n, magnitude));
  }
}

// ---- Boost.Hana struct samples -----------------------------------------------------------

/// A struct template over its number type, with a tensor member: the traced function sees
/// an observation<calx::batch_tracer> whose tensor holds one tensor per sample.
template <class T>
struct observation {
  BOOST_HANA_DEFINE_STRUCT(observation, (calx::tensor<double, 2>, x), (T, weight));
};
constexpr auto weighted_fit = [](const auto& obs, const auto& w) {
  return calx::sum(obs.weight * calx::vmap([](const auto& x, const auto& w) { return calx::square(calx::dot(x, w) - 1.0); },
                                           calx::in_axes<0, calx::none>)(obs.x, w));
};

/// A non-template struct of tensors: its traced form is itself.
struct frame {
  BOOST_HANA_DEFINE_STRUCT(frame, (calx::tensor<float, 3>, a), (calx::tensor<float>, b));
};
constexpr auto frame_score = [](const auto& fs, const auto& s) {
  return calx::sum(calx::vmap([](const auto& f, const auto& s) { return calx::sum(f.a * s) * f.b; },
                              calx::in_axes<0, calx::none>)(fs, s));
};

TEST_CASE("grad of a sum over a batch of Hana structs", "[batch][hana]") {
  for (std::size_t n : batch_sizes<double>()) {
    INFO("n = " << n);
    std::vector<observation<double>> obs(n);
    for (std::size_t i = 0; i < n; ++i) {
      obs[i].x(0) = sample<double>(i, -1, 1, 0);
      obs[i].x(1) = sample<double>(i, -1, 1, 1);
      obs[i].weight = sample<double>(i, 0, 2, 2);
    }
    calx::tensor<double, 2> w;
    w(0) = 0.5;
    w(1) = -1.5;
    const auto [dobs, dw] = calx::grad(weighted_fit, calx::argnums<0, 1>)(obs, w);
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dobs)>, calx::batched<observation<double>>>);
    REQUIRE(dobs.size() == n);
    // Closed form: r_i = <x_i, w> - 1; d/dweight_i = r_i^2, d/dx_i = 2 weight_i r_i w,
    // d/dw = sum_i 2 weight_i r_i x_i.
    std::array<double, 2> want_dw{}, magnitude{};
    const auto residual = [&](std::size_t i) { return obs[i].x[0] * w[0] + obs[i].x[1] * w[1] - 1.0; };
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < 2; ++j) {
        want_dw[j] += 2 * obs[i].weight * residual(i) * obs[i].x[j];
        magnitude[j] += std::abs(2 * obs[i].weight * residual(i) * obs[i].x[j]);
      }
    const tolerance few_ulps{8 * std::numeric_limits<double>::epsilon(), 1e-15};
    check_column("d/dweight", column_of(dobs, [](const auto& g) { return g.weight; }), n,
                 [&](std::size_t i) { return residual(i) * residual(i); }, few_ulps);
    for (std::size_t j = 0; j < 2; ++j) {
      check_column("d/dx", column_of(dobs, [&](const auto& g) { return g.x[j]; }), n,
                   [&](std::size_t i) { return 2 * obs[i].weight * residual(i) * w[j]; }, few_ulps);
      CHECK(std::abs(dw[j] - want_dw[j]) <= batch_tolerance<double>(n, magnitude[j]));
    }
  }

  // A non-template struct of float tensors, a rank-0 one among them.
  std::vector<frame> fs(100);
  for (std::size_t i = 0; i < fs.size(); ++i) {
    for (std::size_t j = 0; j < 3; ++j) fs[i].a(j) = sample<float>(i, -1, 1, static_cast<unsigned>(j));
    fs[i].b = calx::tensor<float>(sample<float>(i, 0, 1, 3));
  }
  calx::tensor<float, 3> s;
  s(0) = 1.0f;
  s(1) = 2.0f;
  s(2) = -1.0f;
  const auto [dfs, ds] = calx::grad(frame_score, calx::argnums<0, 1>)(fs, s);
  REQUIRE(dfs.size() == fs.size());
  std::array<double, 3> want_ds{};
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const float b = static_cast<float>(fs[i].b);
    for (std::size_t j = 0; j < 3; ++j) {
      want_ds[j] += static_cast<double>(fs[i].a[j]) * b;
      INFO("sample " << i << ", element " << j);
      CHECK(dfs[i].a[j] == Approx(s[j] * b).epsilon(4e-7));
    }
    const double dot = static_cast<double>(fs[i].a[0]) * s[0] + static_cast<double>(fs[i].a[1]) * s[1] +
                       static_cast<double>(fs[i].a[2]) * s[2];
    CHECK(static_cast<double>(static_cast<float>(dfs[i].b)) == Approx(dot).epsilon(1e-6).margin(1e-6));
  }
  for (std::size_t j = 0; j < 3; ++j) CHECK(static_cast<double>(ds[j]) == Approx(want_ds[j]).epsilon(1e-5).margin(1e-5));
}

}  // namespace
