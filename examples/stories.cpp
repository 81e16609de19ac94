// The scenes of ../shared/USER-STORIES.md that calx can run today, as users write them, with
// their output checked by CTest (examples/stories.out). Each section checks its own result
// against a closed form or the derivative by hand and prints "ok" or "WRONG", so a wrong
// number fails twice: here and in the golden file. Story 3 (an MLP with tensors) is
// examples/per_sample_grads.cpp, story 6 (a capture, and calx's message)
// tests/fail/grad_captures, story 7 (an ODE's adjoint over a batch) examples/ode_adjoint.cpp;
// 8 (CUDA) waits for a GPU, 9 (Ceres) for issue 28, and story 10's speed (its broadcasts
// are written out today) for issue 26.
#include <calx/calx.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <numbers>
#include <tuple>
#include <utility>
#include <vector>

namespace {

void section(const char* title) { std::printf("\n## %s\n\n", title); }

// 1. Newton's method in a user's own template: transforms are values built from types.
template <class F>
double newton_min(F f, double x, int steps) {
  (void)f;
  constexpr auto df = calx::grad(F{});
  constexpr auto d2f = calx::grad(calx::grad(F{}));
  for (int i = 0; i < steps; ++i) x -= df(x) / d2f(x);
  return x;
}

void story_newton() {
  section("1. Newton's method in a user's own template");
  constexpr auto f = [](auto x) { return calx::cosh(x - 1.0) + 0.1 * x * x; };
  const double xmin = newton_min(f, 3.0, 20);
  const double slope = std::sinh(xmin - 1.0) + 0.2 * xmin;  // f'(xmin) by hand
  std::printf("xmin = %.12f, f'(xmin) by hand = %.1e: %s\n", xmin, slope, std::abs(slope) < 1e-14 ? "ok" : "WRONG");
}

// 2. Greeks over a book of options.
constexpr auto price = [](auto S, auto K, auto T, auto r, auto sigma) {
  auto sd = sigma * calx::sqrt(T);
  auto d1 = (calx::log(S / K) + (r + 0.5 * sigma * sigma) * T) / sd;
  auto d2 = d1 - sd;
  auto N = [](auto z) { return 0.5 * calx::erfc(-z * 0.7071067811865476); };
  return S * N(d1) - K * calx::exp(-r * T) * N(d2);
};

void story_greeks() {
  section("2. Greeks over a book of options");
  const std::size_t n = 1000;
  std::vector<double> S(n), K(n), T(n), r(n), sigma(n);
  for (std::size_t i = 0; i < n; ++i) {
    S[i] = 60.0 + 0.08 * static_cast<double>(i);
    K[i] = 100.0;
    T[i] = 0.25 + 0.001 * static_cast<double>(i % 500);
    r[i] = 0.03;
    sigma[i] = 0.15 + 0.0002 * static_cast<double>(i % 700);
  }
  auto [value, greeks] = calx::vmap(calx::value_and_grad(price, calx::argnums<0, 2, 3, 4>))(S, K, T, r, sigma);
  auto gamma = calx::vmap(calx::grad(calx::grad(price)))(S, K, T, r, sigma);
  const auto& [delta, theta, rho, vega] = greeks;  // d/dS, d/dT, d/dr, d/dsigma
  // The closed forms: delta = N(d1), gamma = n(d1) / (S sigma sqrt T), vega = S n(d1) sqrt T.
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double sd = sigma[i] * std::sqrt(T[i]);
    const double d1 = (std::log(S[i] / K[i]) + (r[i] + 0.5 * sigma[i] * sigma[i]) * T[i]) / sd;
    const double pdf = std::exp(-0.5 * d1 * d1) / std::sqrt(2 * std::numbers::pi);
    const double want[3] = {0.5 * std::erfc(-d1 / std::numbers::sqrt2), pdf / (S[i] * sd), S[i] * pdf * std::sqrt(T[i])};
    const double got[3] = {delta[i], gamma[i], vega[i]};
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(got[k] - want[k]) / (std::abs(want[k]) + 1e-300));
  }
  for (std::size_t i : {std::size_t{0}, std::size_t{500}, std::size_t{999}})
    std::printf("contract %3zu: S %.2f  value %.6f  delta %.6f  gamma %.6f  theta %.6f  rho %.6f  vega %.6f\n", i,
                S[i], value[i], delta[i], gamma[i], theta[i], rho[i], vega[i]);
  std::printf("delta, gamma, vega against their closed forms, %zu contracts: %s\n", n,
              worst < 1e-11 ? "ok" : "WRONG");
}

// 4. A gradient rule written as a closure, and an op of one's own.
constexpr auto log1pexp = calx::custom_jvp([](auto x) {
  auto y = calx::where(x > 30.0, x, calx::log1p(calx::exp(calx::where(x > 30.0, 0.0, x))));
  return std::pair{y, [=](auto t) { return t * calx::sigmoid(x); }};
});
constexpr auto clip_gradient = calx::custom_vjp([](auto x) {
  return std::pair{x, [](auto g) { return std::tuple{calx::clamp(g, -1.0, 1.0)}; }};
});

}  // namespace

struct softplus_op {};  // a user op: one IR node, rules from its decomposition
template <>
struct calx::op_traits<softplus_op> {
  static constexpr const char* name = "softplus";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return calx::log1p(calx::exp(x)); }
};
inline constexpr calx::op_fn<softplus_op> softplus{};

namespace {

void story_rules() {
  section("4. A gradient rule written as a closure, and an op of one's own");
  const std::vector<double> xs{-1000.0, -1.0, 0.0, 1.0, 1000.0};
  const auto g = calx::vmap(calx::grad(log1pexp))(xs);
  const auto h = calx::vmap(calx::grad(calx::grad(log1pexp)))(xs);
  bool finite = true;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    std::printf("log1pexp at %7.1f: grad %.6f  grad(grad) %.6f\n", xs[i], g[i], h[i]);
    finite = finite && std::isfinite(g[i]) && std::isfinite(h[i]);
  }
  std::printf("grad at 1000 by grad, not vmap: %.6f; all finite: %s\n", calx::grad(log1pexp)(1000.0),
              finite ? "ok" : "WRONG");
  constexpr auto scaled = [](auto x) { return clip_gradient(3.0 * x) * x; };
  // d/dx [clip(3x) x] = clip'(3x) * 3 * x + 3x, with the cotangent of clip's input clamped.
  std::printf("clip_gradient: d/dx[clip(3x) x] at 2 = %.6f (the identity's derivative gives 12)\n",
              calx::grad(scaled)(2.0));
  constexpr auto sp = [](auto x) { return softplus(x) * x; };
  std::printf("softplus: value %.6f, grad %.6f at 0.5\n", calx::trace(sp, 0.0)(0.5), calx::grad(sp)(0.5));
  std::puts(calx::to_string(calx::trace(sp, 0.0)).c_str());
}

// 5. Seeing what calx built.
void story_ir() {
  section("5. Seeing what calx built");
  constexpr auto f = [](auto x) { return calx::cosh(x - 1.0) + 0.1 * x * x; };
  std::puts(calx::to_string(calx::trace(calx::grad(f), 0.0)).c_str());
}

// 10. kmeans the way NumPy users write it: every point against every centroid by
// broadcasting, the nearest by `min`, the gradient with respect to the centroids.
constexpr auto cost = [](const auto& points, const auto& centroids) {  // 1000 x 8, 10 x 8
  auto d = calx::reshape<1000, 1, 8>(points) - calx::reshape<1, 10, 8>(centroids);
  return calx::sum(calx::min(calx::sum(d * d, calx::axis<2>), calx::axis<1>));
};

void story_kmeans() {
  section("10. kmeans the way NumPy users write it");
  static calx::tensor<double, 1000, 8> points;  // 64 KB: not on the stack
  calx::tensor<double, 10, 8> centroids;
  for (std::size_t i = 0; i < 1000; ++i)
    for (std::size_t j = 0; j < 8; ++j) points(i, j) = std::sin(0.37 * static_cast<double>(i) + static_cast<double>(j));
  for (std::size_t c = 0; c < 10; ++c)
    for (std::size_t j = 0; j < 8; ++j)
      centroids(c, j) = std::cos(1.3 * static_cast<double>(c) + 0.5 * static_cast<double>(j));
  const auto g = calx::grad(cost, calx::argnums<1>)(points, centroids);
  // By hand: each point pulls its nearest centroid, d/dc sum_j (p_j - c_j)^2 = -2 (p - c).
  double want[10][8] = {};
  for (std::size_t i = 0; i < 1000; ++i) {
    std::size_t best = 0;
    double nearest = 1e300;
    for (std::size_t c = 0; c < 10; ++c) {
      double d2 = 0;
      for (std::size_t j = 0; j < 8; ++j) d2 += (points(i, j) - centroids(c, j)) * (points(i, j) - centroids(c, j));
      if (d2 < nearest) nearest = d2, best = c;
    }
    for (std::size_t j = 0; j < 8; ++j) want[best][j] += -2 * (points(i, j) - centroids(best, j));
  }
  double worst = 0;
  for (std::size_t c = 0; c < 10; ++c)
    for (std::size_t j = 0; j < 8; ++j) worst = std::max(worst, std::abs(g(c, j) - want[c][j]));
  std::printf("d cost / d centroid 0: %.6f %.6f ... %.6f\n", double(g(0, 0)), double(g(0, 1)), double(g(0, 7)));
  // The same sums in another order: a few ulps of values of order 100.
  std::printf("against the gradient by hand, 10 x 8 entries: %s\n", worst < 1e-10 ? "ok" : "WRONG");
}

// 11. Pick rows by index: a gather inside a model, its derivatives scattered back.
constexpr auto transform = [](const auto& vertices, const auto& theta) {  // 40 x 3; (angle, scale)
  const auto c = calx::cos(theta(0)), s = calx::sin(theta(0)), zero = 0.0 * c, one = zero + 1.0;
  const auto rotation = calx::reshape<3, 3>(calx::stack(c, -s, zero, s, c, zero, zero, zero, one));
  return calx::matmul(vertices, calx::transpose(rotation)) * theta(1);
};
constexpr auto skin = [](const auto& vertices, const auto& idx, const auto& theta) {  // idx: runtime ints
  auto picked = calx::take(transform(vertices, theta), idx, calx::axis<0>);           // gather; vjp scatters
  return picked;
};

void story_gather() {
  section("11. Pick rows by index");
  calx::tensor<double, 40, 3> vertices;
  for (std::size_t v = 0; v < 40; ++v)
    for (std::size_t j = 0; j < 3; ++j) vertices(v, j) = std::sin(0.7 * static_cast<double>(v) + 1.9 * static_cast<double>(j));
  calx::tensor<int, 6> idx;
  const int picks[6] = {3, 17, 3, 39, 0, -1};  // -1: the last row, as in NumPy
  for (std::size_t r = 0; r < 6; ++r) idx(r) = picks[r];
  calx::tensor<double, 2> theta;
  theta(0) = 0.3;
  theta(1) = 1.5;
  const auto picked = skin(vertices, idx, theta);
  const auto jacobian = calx::jacfwd(skin, calx::argnums<2>)(vertices, idx, theta);  // 6 x 3 x 2
  const auto dvertices = calx::grad([](const auto& v, const auto& i, const auto& t) { return calx::sum(skin(v, i, t)); })(
      vertices, idx, theta);  // 40 x 3: each row as often as it is picked
  // By hand: row r of the result is scale * R(angle) v[idx[r]].
  const double c = std::cos(0.3), s = std::sin(0.3), scale = 1.5;
  const int rows[6] = {3, 17, 3, 39, 0, 39};
  double worst = 0;
  for (std::size_t r = 0; r < 6; ++r) {
    const auto v = [&](std::size_t j) { return double(vertices(static_cast<std::size_t>(rows[r]), j)); };
    const double rotated[3] = {c * v(0) - s * v(1), s * v(0) + c * v(1), v(2)};
    const double turned[3] = {-s * v(0) - c * v(1), c * v(0) - s * v(1), 0.0};  // d rotated / d angle
    for (std::size_t j = 0; j < 3; ++j) {
      worst = std::max(worst, std::abs(double(picked(r, j)) - scale * rotated[j]));
      worst = std::max(worst, std::abs(double(jacobian(r, j, 0)) - scale * turned[j]));
      worst = std::max(worst, std::abs(double(jacobian(r, j, 1)) - rotated[j]));
    }
  }
  // d sum / d v = count * scale * R^T (1, 1, 1).
  const double pulled[3] = {scale * (c + s), scale * (c - s), scale};
  for (std::size_t v = 0; v < 40; ++v) {
    const double count = static_cast<double>(std::count(rows, rows + 6, static_cast<int>(v)));
    for (std::size_t j = 0; j < 3; ++j) worst = std::max(worst, std::abs(double(dvertices(v, j)) - count * pulled[j]));
  }
  std::printf("rows 3, 17, 3, 39, 0, -1 of 40, turned and scaled; row 0: %.6f %.6f %.6f\n", double(picked(0, 0)),
              double(picked(0, 1)), double(picked(0, 2)));
  std::printf("d row 0 / d angle: %.6f %.6f %.6f; d sum / d vertex 3: %.6f %.6f %.6f (picked twice)\n",
              double(jacobian(0, 0, 0)), double(jacobian(0, 1, 0)), double(jacobian(0, 2, 0)), double(dvertices(3, 0)),
              double(dvertices(3, 1)), double(dvertices(3, 2)));
  std::printf("against the values and derivatives by hand: %s\n", worst < 1e-12 ? "ok" : "WRONG");
}

}  // namespace

int main() {
  story_newton();
  story_greeks();
  story_rules();
  story_ir();
  story_kmeans();
  story_gather();
}
