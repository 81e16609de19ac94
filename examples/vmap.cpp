// vmap: per-sample evaluation and derivatives over batches, as SIMD code. The output is
// checked by CTest (examples/vmap.out); docs/vmap.md quotes the snippets between markers.
#include <calx/calx.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <span>
#include <tuple>
#include <vector>

// [f]
constexpr auto f = [](auto x, auto y) { return calx::sin(x) * y + x * x; };
// [f]

/// Points on a spiral, for the kmeans example.
std::vector<calx::tensor<double, 8>> load_points() {
  std::vector<calx::tensor<double, 8>> cloud(1000);
  for (std::size_t i = 0; i < cloud.size(); ++i)
    for (std::size_t j = 0; j < 8; ++j) cloud[i](j) = std::sin(0.37 * static_cast<double>(i) + static_cast<double>(j));
  return cloud;
}

int main() {
  std::vector<double> xs{0.0, 0.5, 1.0, 1.5, 2.0}, ys{1.0, 2.0, 3.0, 4.0, 5.0};

  // [basic]
  calx::batched<double> out = calx::vmap(f)(xs, ys);                       // out[i] = f(xs[i], ys[i])
  auto half = calx::vmap(f, calx::in_axes<0, calx::none>)(xs, 0.5);         // y = 0.5 for every sample
  // [basic]
  std::printf("vmap(f): %.6f %.6f %.6f %.6f %.6f\n", out[0], out[1], out[2], out[3], out[4]);
  std::printf("in_axes<0, none>: %.6f ... %.6f\n", half[0], half[4]);

  // [per_sample]
  auto [values, grads] = calx::vmap(calx::value_and_grad(f, calx::argnums<0, 1>))(xs, ys);
  const auto& [dx, dy] = grads;                                              // columns
  auto d2 = calx::vmap(calx::grad(calx::grad(f)))(xs, ys);
  // [per_sample]
  for (std::size_t i = 0; i < xs.size(); ++i)
    std::printf("sample %zu: f %.6f  df/dx %.6f  df/dy %.6f  d2f/dx2 %.6f\n", i, values[i], dx[i], dy[i], d2[i]);

  // [batch_grad]
  static constexpr auto loss = [](auto xs, auto w) {  // static: traced lambdas below call it
    return calx::mean(calx::vmap(f, calx::in_axes<0, calx::none>)(xs, w));
  };
  auto [l, g] = calx::value_and_grad(loss, calx::argnums<0, 1>)(xs, 2.0);
  const auto& [dl_dxs, dl_dw] = g;                                            // a column and a number
  // [batch_grad]
  std::printf("mean loss %.6f, dloss/dw %.6f, dloss/dxs[4] %.6f\n", l, dl_dw, dl_dxs[4]);

  // [batch_trace]
  const auto program = calx::trace(loss, xs, 2.0);   // xs: a std::vector<double>
  double traced = program(xs, 2.0);                    // also on another batch, of any length
  // [batch_trace]
  std::printf("traced mean loss %.6f (as above: %s), on the first two samples %.6f\n", traced,
              std::abs(traced - l) <= 1e-12 * std::abs(l) ? "yes" : "no",
              program(std::span<const double>(xs).first(2), 2.0));

  // [batch_nested]
  const auto dloss_dw = calx::trace(calx::grad(loss, calx::argnums<1>), xs, 2.0);  // a program
  auto [dw, dw_tangent] = calx::jvp(calx::grad(loss, calx::argnums<1>), std::tuple{xs, 2.0},
                                    std::tuple{std::vector<double>(xs.size(), 1.0), 0.0});  // d/dw, and its change as every x grows
  // [batch_nested]
  std::printf("traced dloss/dw %.6f (as above: %s), its derivative along xs + t %.6f\n", dloss_dw(xs, 2.0),
              dloss_dw(xs, 2.0) == dw && std::abs(dw - dl_dw) <= 1e-12 * std::abs(dl_dw) ? "yes" : "no", dw_tangent);

  // [batch_inside]
  const auto step = calx::trace([](auto xs, auto w) {  // xs: a calx::batch_tracer here
    const auto scaled = 0.5 * xs;                        // a batch_tracer too
    return w - 0.1 * calx::grad(loss, calx::argnums<1>)(scaled, w);
  }, xs, 2.0);
  // [batch_inside]
  std::vector<double> half_xs(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) half_xs[i] = 0.5 * xs[i];
  const double step_ref = 2.0 - 0.1 * calx::grad(loss, calx::argnums<1>)(half_xs, 2.0);
  std::printf("a gradient step on half the samples %.6f (as on the numbers: %s)\n", step(xs, 2.0),
              std::abs(step(xs, 2.0) - step_ref) <= 1e-12 * std::abs(step_ref) ? "yes" : "no");

  // [into]
  std::vector<double> buffer(xs.size());
  std::span<double> column{buffer};
  calx::vmap(f).threads(2).into(column)(xs, ys);                            // no allocation
  // [into]
  std::printf("into: %.6f %.6f\n", buffer[0], buffer[4]);

  // [structures]
  std::vector<std::array<double, 2>> points{{1.0, 0.0}, {0.0, 2.0}, {3.0, 4.0}};
  constexpr auto norm = [](auto p) { return calx::sqrt(p[0] * p[0] + p[1] * p[1]); };
  auto normals = calx::vmap(calx::grad(norm))(points);                      // normals[sample][element]
  // [structures]
  std::printf("grad of norm: (%.3f, %.3f) (%.3f, %.3f) (%.3f, %.3f)\n", normals[0][0], normals[0][1],
              normals[1][0], normals[1][1], normals[2][0], normals[2][1]);

  calx::tensor<double, 10, 8> centroids;
  for (std::size_t k = 0; k < 10; ++k)
    for (std::size_t j = 0; j < 8; ++j) centroids(k, j) = std::cos(1.3 * static_cast<double>(k) + 0.5 * static_cast<double>(j));
  // [kmeans]
  static constexpr auto nearest = [](const auto& p, const auto& c) {  // p: tensor<double, 8>, c: tensor<double, 10, 8>
    const auto d = c - p;                                             // p broadcast over the centroids
    return calx::min(calx::sum(d * d, calx::axis<1>));
  };
  static constexpr auto cost = [](const auto& ps, const auto& c) {
    return calx::sum(calx::vmap(nearest, calx::in_axes<0, calx::none>)(ps, c));
  };
  std::vector<calx::tensor<double, 8>> cloud = load_points();
  auto [dcloud, dc] = calx::grad(cost, calx::argnums<0, 1>)(cloud, centroids);  // calx::batched<tensor<double, 8>>, tensor<double, 10, 8>
  // [kmeans]
  // The same gradient with respect to the centroids, one sample at a time.
  const auto each = calx::vmap(calx::grad(nearest, calx::argnums<1>), calx::in_axes<0, calx::none>)(cloud, centroids);
  double worst = 0;
  for (std::size_t e = 0; e < 80; ++e) {
    double s = 0;
    for (const auto& g : each) s += g[e];
    worst = std::max(worst, std::abs(s - dc[e]) / (1.0 + std::abs(s)));
  }
  std::printf("kmeans: d cost / d centroid 0 = (%.4f, %.4f, ...), d cost / d point 0 = (%.4f, %.4f, ...); as one "
              "sample at a time: %s\n", double(dc(0, 0)), double(dc(0, 1)), double(dcloud[0](0)), double(dcloud[0](1)),
              worst <= 1e-12 ? "yes" : "no");
}
