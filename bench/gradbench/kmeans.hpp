/// @file bench/gradbench/kmeans.hpp
/// @brief GradBench's kmeans (evals/kmeans): the cost of n points against k centroids in d
/// dimensions, and `dir`, the Newton direction J H^-1 (the gradient in the centroids over
/// the Hessian's diagonal, the only part of it that is not zero).
///
/// The points are a runtime batch (`std::vector` of `calx::tensor<double, D>`); k and d are
/// compile-time sizes, one instantiation per pair the eval sends by default, a TU per d
/// (kmeans_d8.cpp, kmeans_d16.cpp) for the compile budget.
#ifndef CALX_BENCH_GRADBENCH_KMEANS_HPP
#define CALX_BENCH_GRADBENCH_KMEANS_HPP

#include "protocol.hpp"

#include <calx/calx.hpp>

#include <array>
#include <memory>
#include <tuple>
#include <vector>

namespace calx_gradbench::kmeans {

/// The squared distance from a point to its nearest centroid.
inline constexpr auto nearest = [](const auto& p, const auto& c) {
  const auto d = c - p;  // p broadcast over the centroids
  return calx::min(calx::sum(d * d, calx::axis<1>));
};
/// The objective: the sum of that over the points.
inline constexpr auto cost = [](const auto& points, const auto& centroids) {
  return calx::sum(calx::vmap(nearest, calx::in_axes<0, calx::none>)(points, centroids));
};

inline constexpr std::array<std::size_t, 3> ks{10, 100, 1000};
inline constexpr std::array<std::size_t, 2> ds{8, 16};  // a TU each: kmeans_d8.cpp, kmeans_d16.cpp

template <std::size_t K, std::size_t D>
struct state {
  std::vector<calx::tensor<double, D>> points;
  heap_tensor<calx::tensor<double, K, D>> centroids, ones, dir;
  double value = 0;
};

template <std::size_t K, std::size_t D>
state<K, D> read(const json& input) {
  state<K, D> s;
  const json& p = input.at("points");
  const json& c = input.at("centroids");
  s.points.resize(p.size());
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t l = 0; l < D; ++l) s.points[i][l] = p[i].at(l).get<double>();
  for (std::size_t j = 0; j < K; ++j)
    for (std::size_t l = 0; l < D; ++l) {
      (*s.centroids)[j * D + l] = c[j].at(l).get<double>();
      (*s.ones)[j * D + l] = 1.0;
    }
  return s;
}

/// `cost` or `dir` at d = D, k read from the input.
template <std::size_t D>
std::unique_ptr<evaluation> prepare(bool dir, const json& input) {
  return dispatch_size<ks>(input.at("centroids").size(), "kmeans: k (d = " + std::to_string(D) + ")", [&]<std::size_t I>() {
    constexpr std::size_t K = ks[I];
    using S = state<K, D>;
    if (!dir)
      return make_evaluation(
          read<K, D>(input), [](S& s) { s.value = calx::trace(cost, s.points, *s.centroids)(s.points, *s.centroids); },
          [](const S& s) { return json(s.value); });
    return make_evaluation(
        read<K, D>(input),
        [](S& s) {
          // The gradient and, by a jvp of it along ones, the Hessian's diagonal (H is diagonal).
          const auto [g, h] = calx::jvp(calx::grad(cost, calx::argnums<1>), std::forward_as_tuple(s.points, *s.centroids),
                                        std::forward_as_tuple(*s.ones), calx::argnums<1>);
          for (std::size_t e = 0; e < K * D; ++e) (*s.dir)[e] = g[e] / h[e];
        },
        [](const S& s) { return rows_json<K, D>(*s.dir); });
  });
}

extern template std::unique_ptr<evaluation> prepare<8>(bool, const json&);
extern template std::unique_ptr<evaluation> prepare<16>(bool, const json&);

}  // namespace calx_gradbench::kmeans

#endif
