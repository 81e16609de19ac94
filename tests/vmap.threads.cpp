/// @file tests/vmap.threads.cpp
/// @brief `calx::vmap(f).threads(n)`: the batch is split into fixed chunks of 2048 samples
/// handed out to up to n threads (0: one per core; capped at the hardware concurrency), and
/// the result must not depend on n: threads(1), threads(2), threads(0) and an
/// over-subscribed threads(16) give bitwise identical results, for batches of one chunk,
/// exactly three chunks, and several chunks with a partial last one.
///
/// Reductions: no public API runs a batch_sum on several threads. vmap's f sees one sample
/// at a time, so its program never sums over the batch, and grad / value_and_grad / jvp
/// over runtime batches (where calx::sum and calx::mean reduce the batch) always run on
/// one thread. Their chunked, ordered summation is tested in vmap.transformed.cpp and
/// reduce.cpp; here, only that it gives the same bits whatever the storage of the batch.

#include <_include/float_compare.hpp>
#include <_include/test_functions.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using calx_test::check_column;
using calx_test::column;
using calx_test::sample;

using calx_test::fc;
using calx_test::fw;
constexpr auto select = [](auto x, auto y) {
  return calx::where(x > y, x * y, calx::min(x, y) - 0.5 * calx::max(x, y)) + calx::abs(x - y);
};
constexpr auto norm_plus = [](auto v) { return calx::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + v[0] * v[2]; };
constexpr auto split = [](auto x, auto w) { return std::tuple{calx::erf(x * w), w * w}; };

/// One chunk, one sample past a chunk, three whole chunks, and 32 chunks plus one sample.
const std::vector<std::size_t> sizes{1000, 2049, 3 * 2048, 10000, 65537};
/// Thread counts: one, two, one per core, and more than there are cores (capped).
constexpr std::array<unsigned, 4> counts{1, 2, 0, 16};

template <class Run>
void same_for_every_thread_count(const char* what, std::size_t n, Run&& run) {
  const auto one = run(1u);
  for (unsigned t : counts) {
    const auto r = run(t);
    INFO(what << " with threads(" << t << ") vs threads(1)");
    if constexpr (requires { one[0]; }) {
      check_column(what, r, n, [&](std::size_t i) { return one[i]; });
    } else {
      std::apply(
          [&](const auto&... c) {
            std::apply([&](const auto&... o) { (check_column(what, c, n, [&](std::size_t i) { return o[i]; }), ...); },
                       one);
          },
          r);
    }
  }
}

TEMPLATE_TEST_CASE("vmap gives the same bits on any number of threads", "[vmap][threads]", float, double) {
  using T = TestType;
  for (std::size_t n : sizes) {
    const auto x = column<T>(n, -3, 3, 1), y = column<T>(n, -3, 3, 2);
    auto xs = x, ys = y;
    for (std::size_t i = 0; i < n; i += 97)
      xs[i] = std::numeric_limits<T>::quiet_NaN(), ys[i + 1 < n ? i + 1 : i] = -std::numeric_limits<T>::infinity();
    std::vector<std::array<T, 3>> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {x[i], y[i], sample<T>(i, -1, 1, 3)};

    same_for_every_thread_count("transcendental", n, [&](unsigned t) { return calx::vmap(fc).threads(t)(x); });
    same_for_every_thread_count("where/min/max with NaN and inf", n,
                                [&](unsigned t) { return calx::vmap(select).threads(t)(xs, ys); });
    same_for_every_thread_count("array-of-struct (strided loads)", n,
                                [&](unsigned t) { return calx::vmap(norm_plus).threads(t)(v); });
    same_for_every_thread_count("unaligned span (n - 1 samples)", n - 1, [&](unsigned t) {
      return calx::vmap(fw, calx::in_axes<0, calx::none>).threads(t)(std::span<const T>(x).subspan(1), T(0.5));
    });
    same_for_every_thread_count("tuple with a broadcast output", n, [&](unsigned t) {
      return calx::vmap(split, calx::in_axes<0, calx::none>).threads(t)(x, T(0.5));
    });
    same_for_every_thread_count("vmap(value_and_grad)", n, [&](unsigned t) {
      const auto [v0, g] = calx::vmap(calx::value_and_grad(fw, calx::argnums<0, 1>)).threads(t)(x, y);
      return std::tuple{v0, std::get<0>(g), std::get<1>(g)};
    });
    // into() on several threads, in either order of the calls.
    same_for_every_thread_count("into", n, [&](unsigned t) {
      std::vector<T> a(n), b(n);
      calx::vmap(fc).threads(t).into(a)(x);
      calx::vmap(fc).into(b).threads(t)(x);
      return std::tuple{a, b};
    });
    // out_axes none on several threads: the value computed once.
    for (unsigned t : counts) {
      const auto [c, once] =
          calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>).threads(t)(x, T(0.5));
      CHECK(once == T(0.25));
      CHECK(c.size() == n);
    }
  }
}

TEST_CASE("vmap with more threads than chunks, and on tiny and empty batches", "[vmap][threads]") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{2048}}) {
    const auto x = column<double>(n, -3, 3, 4);
    const auto one = calx::vmap(fc)(x);
    check_column("threads(16) on a small batch", calx::vmap(fc).threads(16)(x), n,
                 [&](std::size_t i) { return one[i]; });
    check_column("threads(0) on a small batch", calx::vmap(fc).threads(0)(x), n, [&](std::size_t i) { return one[i]; });
  }
}

TEMPLATE_TEST_CASE("a sum over a runtime batch gives the same bits for a vector and an unaligned span",
                   "[vmap][threads]", float, double) {
  using T = TestType;
  constexpr auto loss = [](auto xs, auto w) { return calx::sum(calx::vmap(fw, calx::in_axes<0, calx::none>)(xs, w)); };
  for (std::size_t n : sizes) {
    std::vector<T> storage(n + 1);
    for (std::size_t i = 0; i < n; ++i) storage[i + 1] = sample<T>(i, -2, 2, 5);
    const std::vector<T> x(storage.begin() + 1, storage.end());
    const auto a = calx::value_and_grad(loss, calx::argnums<0, 1>)(x, T(0.75));
    const auto b = calx::value_and_grad(loss, calx::argnums<0, 1>)(std::span<const T>(storage).subspan(1), T(0.75));
    CHECK(calx_test::same_value(a.first, b.first));
    CHECK(calx_test::same_value(std::get<1>(a.second), std::get<1>(b.second)));
    check_column("d/dxs, vector vs span", std::get<0>(b.second), n,
                 [&](std::size_t i) { return std::get<0>(a.second)[i]; });
  }
}

}  // namespace
