/// @file examples/tour.cpp
/// @brief A tour of calx, one section per idea: each prints a function's source, the
/// program calx traced from it (its IR, like `jax.make_jaxpr`) and a few of its values.
/// CTest checks the output against examples/tour.out (test example.tour).
///
/// To add a section: write a `tour_<topic>()` function below (use `section`, `show_source`,
/// `show_ir`), call it from `main`, and refresh the golden output with
/// `CALX_UPDATE_GOLDEN=1 ctest --test-dir build -R '^example\.tour$'`.
#include <calx/calx.hpp>

#include <array>
#include <cstddef>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

// Defines the function `name` and `name_source`, its source text, so that the tour prints
// exactly the code it runs.
#define TOUR_FUNCTION(name, ...)     \
  constexpr auto name = __VA_ARGS__; \
  constexpr const char* name##_source = #__VA_ARGS__

namespace {

void section(const char* title) { std::printf("\n## %s\n\n", title); }

void show_source(const char* name, const char* source) { std::printf("// %s = %s\n", name, source); }

template <class Program>
void show_ir(const Program& program) {
  std::printf("%s\n", calx::to_string(program).c_str());
}

// --- 1. Tracing ---------------------------------------------------------------------------

// A function for calx is stateless and generic: it runs on plain numbers and on tracers.
TOUR_FUNCTION(f, [](auto x, auto y) { return calx::sin(x) * y + x * x; });

void tour_trace() {
  section("1. Trace a function into a program");
  show_source("f", f_source);
  // [trace]
  // The arguments only say "two doubles": f is traced once, at compile time.
  auto p = calx::trace(f, 1.0, 2.0);
  // [trace]
  show_ir(p);
  const std::array<std::pair<double, double>, 3> points{{{0.0, 1.0}, {0.5, 3.0}, {2.0, -1.0}}};
  for (auto [x, y] : points)
    std::printf("p(%g, %g) = %.6f    f(%g, %g) = %.6f\n", x, y, p(x, y), x, y, f(x, y));
}

// --- 2. Sharing and constants ---------------------------------------------------------------

TOUR_FUNCTION(g, [](auto x) {
  auto s = calx::sin(x);
  return s * s + s * s + 2.0 * 3.0;
});

void tour_sharing() {
  section("2. The program is a DAG: shared values and folded constants");
  show_source("g", g_source);
  auto p = calx::trace(g, 1.0);
  show_ir(p);  // sin x and s * s appear once; 2.0 * 3.0 is folded to 6.0
  for (double x : {0.0, 1.0, -2.5}) std::printf("p(%g) = %.6f\n", x, p(x));
}

// --- 3. Branches ----------------------------------------------------------------------------

// `if (x > 0)` cannot work on a value traced once for all inputs: select with calx::where.
TOUR_FUNCTION(elu, [](auto x, auto a) { return calx::where(x > 0.0, x, a * calx::expm1(x)); });

void tour_where() {
  section("3. Branches are selections: calx::where");
  show_source("elu", elu_source);
  auto p = calx::trace(elu, 1.0, 1.0);
  show_ir(p);
  for (double x : {-2.0, -0.5, 0.0, 1.5}) std::printf("p(%g, 1) = %.6f\n", x, p(x, 1.0));
}

// --- 4. Structured arguments and results ----------------------------------------------------

TOUR_FUNCTION(polar, [](auto point) {
  auto [x, y] = point;
  return std::tuple{calx::sqrt(x * x + y * y), calx::atan2(y, x)};
});

void tour_structures() {
  section("4. Arguments and results can be std::array, std::tuple, std::pair");
  show_source("polar", polar_source);
  auto p = calx::trace(polar, std::array{1.0, 1.0});
  show_ir(p);
  for (auto point : {std::array{1.0, 0.0}, std::array{0.0, 2.0}, std::array{-3.0, 4.0}}) {
    auto [r, theta] = p(point);
    std::printf("p({%g, %g}) = {r: %.6f, theta: %.6f}\n", point[0], point[1], r, theta);
  }
}

// --- 5. Precision ---------------------------------------------------------------------------

void tour_float() {
  section("5. One program per precision: float arguments give an f32 program");
  show_source("f", f_source);
  auto p = calx::trace(f, 1.0f, 2.0f);
  show_ir(p);
  std::printf("p(0.5f, 3.0f) = %.5f (a float)\n", static_cast<double>(p(0.5f, 3.0f)));
}

// --- 6. Derivatives ------------------------------------------------------------------------

void tour_grad() {
  section("6. Derivatives are programs too: grad, jvp, hessian");
  show_source("f", f_source);
  // [grad]
  auto df = calx::grad(f, calx::argnums<0, 1>);  // a function: (x, y) -> (df/dx, df/dy)
  // [grad]
  std::printf("the program of grad(f, argnums<0, 1>):\n");
  show_ir(calx::trace(df, 1.0, 2.0));
  auto [dx, dy] = df(0.5, 3.0);
  std::printf("grad f(0.5, 3) = (%.6f, %.6f)    by hand: (%.6f, %.6f)\n", dx, dy,
              calx::cos(0.5) * 3.0 + 2 * 0.5, calx::sin(0.5));
  // [jvp]
  auto [value, tangent] = calx::jvp(f, std::tuple{0.5, 3.0}, std::tuple{1.0, 0.0});
  // [jvp]
  std::printf("jvp at (0.5, 3) along (1, 0): value %.6f, tangent %.6f\n", value, tangent);
  auto h = calx::hessian(f, calx::argnums<0, 1>)(0.5, 3.0);
  std::printf("hessian f(0.5, 3) = [[%.6f, %.6f], [%.6f, %.6f]]\n", std::get<0>(std::get<0>(h)),
              std::get<1>(std::get<0>(h)), std::get<0>(std::get<1>(h)), std::get<1>(std::get<1>(h)));
  std::printf("d3f/dx3 at (0.5, 3) = %.6f (grad of grad of grad)\n",
              calx::grad(calx::grad(calx::grad(f)))(0.5, 3.0));
}

// --- 7. Batches -----------------------------------------------------------------------------

void tour_vmap() {
  section("7. Per-sample gradients over a batch: vmap(grad(f)) as SIMD code");
  show_source("f", f_source);
  const std::vector<double> xs{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0};
  const std::vector<double> ys{1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0};
  // [vmap]
  auto [dxs, dys] = calx::vmap(calx::grad(f, calx::argnums<0, 1>))(xs, ys);  // columns
  // [vmap]
  for (std::size_t i = 0; i < xs.size(); ++i)
    std::printf("sample %zu: (x, y) = (%g, %g)  df/dx = %.6f  df/dy = %.6f\n", i, xs[i], ys[i], dxs[i], dys[i]);
}

// --- 8. Your own ops --------------------------------------------------------------------------

}  // namespace

// An op is a tag type and its op_traits, in your code. This one has only a decomposition:
// its kernel and every derivative and batching rule come from log1p(exp(x)).
namespace tour {
struct softplus_op {};
}  // namespace tour

template <>
struct calx::op_traits<tour::softplus_op> {
  static constexpr const char* name = "softplus";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return calx::log1p(calx::exp(x)); }
};

namespace {

constexpr calx::op_fn<tour::softplus_op> softplus{};

TOUR_FUNCTION(mlp_unit, [](auto x, auto w) { return softplus(w * x) * x; });

void tour_user_op() {
  section("8. Your own ops: a tag type and calx::op_traits");
  show_source("mlp_unit", mlp_unit_source);
  show_ir(calx::trace(mlp_unit, 1.0, 2.0));  // softplus is one node
  std::printf("the program of grad(mlp_unit, argnums<1>), through softplus's decomposition:\n");
  show_ir(calx::trace(calx::grad(mlp_unit, calx::argnums<1>), 1.0, 2.0));
  auto g = calx::vmap(calx::grad(mlp_unit, calx::argnums<1>), calx::in_axes<0, calx::none>)(
      std::vector<double>{-1.0, 0.0, 1.0}, 2.0);
  std::printf("vmap over x of d/dw at w = 2: %.6f %.6f %.6f\n", g[0], g[1], g[2]);
}

// --- 9. Your own derivative rules ------------------------------------------------------------

// A forward that returns its result with a backward closure over what the rule needs.
// [custom_vjp]
constexpr auto clip_gradient = calx::custom_vjp([](auto x) {
  return std::pair{x, [](auto g) { return std::tuple{calx::max(calx::min(g, 1.0), -1.0)}; }};
});
// [custom_vjp]

TOUR_FUNCTION(clipped, [](auto x) { return clip_gradient(x * x) * 3.0; });

void tour_custom_vjp() {
  section("9. Your own derivative rules: custom_vjp");
  show_source("clipped", clipped_source);
  show_ir(calx::trace(clipped, 1.0));
  std::printf("the program of grad(clipped): the closure clamps the cotangent 3 to 1 (folded), leaving 1 * 2x:\n");
  show_ir(calx::trace(calx::grad(clipped), 1.0));
  for (double x : {0.25, 2.0}) std::printf("clipped(%g) = %g, grad = %g\n", x, clipped(x), calx::grad(clipped)(x));
}

// --- 10. Tensors: per-sample gradients of a model --------------------------------------------

}  // namespace

// Parameters as a plain struct of tensors (shapes in the types); the gradient is that struct.
struct tour_model {
  BOOST_HANA_DEFINE_STRUCT(tour_model, (calx::tensor<double, 2, 3>, w), (calx::tensor<double, 2>, b));
};

namespace {

TOUR_FUNCTION(model_loss, [](const auto& p, const auto& x, const auto& y) {
  return calx::sum(calx::square(calx::tanh(calx::matvec(p.w, x) + p.b) - y));
});

void tour_tensors() {
  section("10. Tensors: per-sample gradients of a model");
  show_source("model_loss", model_loss_source);
  show_ir(calx::trace(model_loss, tour_model{}, calx::tensor<double, 3>{}, calx::tensor<double, 2>{}));  // one node per op
  tour_model p;
  for (std::size_t k = 0; k < p.w.size; ++k) p.w[k] = 0.1 * static_cast<double>(k) - 0.2;
  p.b(1) = 0.5;
  std::vector<calx::tensor<double, 3>> xs(3);
  std::vector<calx::tensor<double, 2>> ys(3);
  for (std::size_t i = 0; i < xs.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) xs[i](k) = static_cast<double>(i + k) / 4.0;
  // [per_sample]
  auto g = calx::vmap(calx::grad(model_loss), calx::in_axes<calx::none, 0, 0>)(p, xs, ys);  // g[i] is a tour_model
  // [per_sample]
  for (std::size_t i = 0; i < g.size(); ++i) {
    const tour_model gi = g[i];
    std::printf("sample %zu: dL/dw(0, 2) = %.6f  dL/db = (%.6f, %.6f)\n", i, double(gi.w(0, 2)), double(gi.b(0)),
                double(gi.b(1)));
  }
}

}  // namespace

int main() {
  std::printf("# A tour of calx\n");
  tour_trace();
  tour_sharing();
  tour_where();
  tour_structures();
  tour_float();
  tour_grad();
  tour_vmap();
  tour_user_op();
  tour_custom_vjp();
  tour_tensors();
}
