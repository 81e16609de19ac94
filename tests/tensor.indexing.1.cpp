/// @file tests/tensor.indexing.1.cpp
/// @brief Indexing by runtime values (tests/_include/indexing_cases.hpp), part 2 of 2:
/// Hessians, vmap (shared and per-sample indices), a loop's index as a start.

#include <_include/indexing_cases.hpp>

#include <catch2/catch.hpp>

using namespace indexing_test;

// Straight-line code reads an `int` index tensor as the caller holds it where an index op
// reads it (register_reader::index), and as numbers where anything else does: here both.
TEST_CASE("an int index tensor read as indices and as numbers in one program", "[tensor][indexing]") {
  constexpr auto both = [](const auto& x, const auto& idx) { return calx::sum(calx::take(x, idx)) * calx::sum(idx); };
  const X x = filled<X>(5);
  for (const I4& idx : idx_cases) {
    double rows = 0, count = 0;
    for (int k = 0; k < 4; ++k) {
      count += idx[k];
      for (int i = 0; i < 3; ++i) rows += x(jax_clamp(idx[k], 4), i);
    }
    CHECK(calx::trace(both, x, idx)(x, idx) == Approx(rows * count).epsilon(1e-15));
    X want;  // each gathered row's entries carry sum(idx)
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 3; ++i) want(jax_clamp(idx[k], 4), i) += count;
    CHECK(max_abs_diff(calx::grad(both)(x, idx), want) == 0.0);
  }
}

TEST_CASE("the Hessian through index ops is symmetric and differentiates the gradient", "[tensor][indexing][hessian]") {
  const X x = filled<X>(30);
  const I4 idx = idx_cases[0], ids = id_cases[0];
  const int s = 1;
  const auto h = calx::hessian(mixed)(x, idx, ids, s);  // tensor<double, 4, 3, 4, 3>
  const auto g = [&](const X& v) { return X(calx::grad(mixed)(v, idx, ids, s)); };
  const double step = 1e-6;
  for (std::size_t j = 0; j < X::size; ++j) {
    X up = x, down = x;
    up[j] += step;
    down[j] -= step;
    const X gu = g(up), gd = g(down);
    for (std::size_t i = 0; i < X::size; ++i) {
      const double fd = (gu[i] - gd[i]) / (2 * step);
      INFO("entry " << i << ", " << j);
      CHECK(std::abs(h[i * X::size + j] - fd) <= 1e-6 * (1.0 + std::abs(fd)));
      CHECK(std::abs(h[i * X::size + j] - h[j * X::size + i]) <= 1e-12 * (1.0 + std::abs(fd)));
    }
  }
}

TEST_CASE("vmap over index ops: shared indices, and per-sample indices that differ across SIMD lanes", "[tensor][indexing][vmap]") {
  std::vector<X> xs;
  std::vector<tensor<double, 4>> idxs;
  std::vector<double> starts;
  for (unsigned i = 0; i < 13; ++i) {
    xs.push_back(filled<X>(40 + i));
    idxs.push_back(tensor<double, 4>(filled<tensor<double, 4>>(60 + i, -6.0, 6.0)));
    for (std::size_t k = 0; k < 4; ++k) idxs.back()[k] = std::trunc(idxs.back()[k]);
    starts.push_back(static_cast<double>(static_cast<int>(i % 7) - 3));
  }
  const I4 idx = idx_cases[0], ids = id_cases[0];
  // Same indices for every sample.
  const auto shared = calx::vmap(mixed, calx::in_axes<0, calx::none, calx::none, calx::none>)(xs, idx, ids, 1);
  const auto shared_grad = calx::vmap(calx::grad(mixed), calx::in_axes<0, calx::none, calx::none, calx::none>)(xs, idx, ids, 1);
  // Each sample its own: index tensors and starts, batched (their values are reals here).
  constexpr auto own = [](const auto& x, const auto& ix, const auto& s) {
    return calx::sum(calx::take(x, ix) * calx::take(x, ix, calx::axis<0>)) +
           calx::sum(calx::dynamic_slice<2>(calx::sin(x), s, calx::axis<1>)) + calx::sum(calx::segment_sum<3>(x * x, ix));
  };
  const auto per_sample = calx::vmap(own)(xs, idxs, starts);
  const auto per_sample_grad = calx::vmap(calx::grad(own))(xs, idxs, starts);
  REQUIRE(per_sample.size() == xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    CHECK(double(shared[i]) == Approx(double(mixed(xs[i], idx, ids, 1))).epsilon(1e-14));
    const X gs = shared_grad[i];
    CHECK(max_abs_diff(gs, X(calx::grad(mixed)(xs[i], idx, ids, 1))) <= 1e-13);
    I4 ix;
    for (std::size_t k = 0; k < 4; ++k) ix[k] = static_cast<int>(idxs[i][k]);
    const int s = static_cast<int>(starts[i]);
    CHECK(double(per_sample[i]) == Approx(double(own(xs[i], ix, s))).epsilon(1e-14));
    const X gp = per_sample_grad[i];
    CHECK(max_abs_diff(gp, X(calx::grad(own)(xs[i], ix, s))) <= 1e-13);
  }
}

TEST_CASE("a loop's index as a start: a sliding window's sum and its gradient", "[tensor][indexing][loop]") {
  using V = tensor<double, 10>;
  // sum over i of prod(x[i .. i + 3)) ^ 2 for i = 0 .. 7, in a fori_loop whose index is the start.
  constexpr auto windows = [](const auto& x) {
    const auto c = calx::fori_loop(0, 8, [](const auto& i, const auto& carry) {
      const auto w = calx::dynamic_slice<3>(carry.first, i);
      return std::pair{carry.first, carry.second + calx::square(calx::prod(w))};
    }, std::pair{x, 0.0 * calx::sum(x)});
    return c.second;
  };
  const V x = filled<V>(70, 0.5, 1.5);
  double want = 0;
  V hand;
  for (int i = 0; i < 8; ++i) {
    const double p = x[i] * x[i + 1] * x[i + 2];
    want += p * p;
    for (int k = 0; k < 3; ++k) hand[i + k] += 2 * p * p / x[i + k];
  }
  CHECK(double(windows(x)) == Approx(want).epsilon(1e-14));
  CHECK(double(calx::trace(windows, x)(x)) == Approx(want).epsilon(1e-14));
  const V g = calx::grad(windows)(x);
  CHECK(max_abs_diff(g, hand) <= 1e-12 * magnitude(hand));
}
