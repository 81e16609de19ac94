/// @file examples/extending.cpp
/// @brief Extending calx without editing it: user ops (a decomposition, an own kernel and
/// vjp, an op that calls an op) and custom derivative rules in closure style (custom_vjp,
/// custom_jvp). Every code block of docs/extending.md is part of this file (CTest
/// docs.snippets.extending checks it), and CTest example.extending compares the output with
/// examples/extending.out.
#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <concepts>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

// [softplus]
namespace mylib {
struct softplus_op {};
}  // namespace mylib

template <>
struct calx::op_traits<mylib::softplus_op> {
  static constexpr const char* name = "softplus";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return calx::log1p(calx::exp(x)); }
};

namespace mylib {
inline constexpr calx::op_fn<softplus_op> softplus{};
}  // namespace mylib
// [softplus]

// [logaddexp]
namespace mylib {
struct logaddexp_op {};  // its own scalar kernel and vjp; no SIMD kernel, no jvp rule
}  // namespace mylib

template <>
struct calx::op_traits<mylib::logaddexp_op> {
  static constexpr const char* name = "logaddexp";
  static constexpr int arity = 2;
  template <std::floating_point T>
  static T kernel(T a, T b) {
    return std::fmax(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
  }
  static constexpr auto vjp(const auto& ct, const auto& y, const auto& a, const auto& b) {
    return std::array{ct * calx::exp(a - y), ct * calx::exp(b - y)};
  }
  static constexpr auto decomposition(const auto& a, const auto& b) {
    auto m = calx::max(a, b);
    return m + calx::log1p(calx::exp(-calx::abs(a - b)));
  }
};

namespace mylib {
inline constexpr calx::op_fn<logaddexp_op> logaddexp{};
}  // namespace mylib
// [logaddexp]

// [logsumexp3]
namespace mylib {
struct logsumexp3_op {};
}  // namespace mylib

template <>
struct calx::op_traits<mylib::logsumexp3_op> {
  static constexpr const char* name = "logsumexp3";
  static constexpr int arity = 3;
  static constexpr auto decomposition(const auto& a, const auto& b, const auto& c) {
    return mylib::logaddexp(mylib::logaddexp(a, b), c);
  }
};

namespace mylib {
inline constexpr calx::op_fn<logsumexp3_op> logsumexp3{};
}  // namespace mylib
// [logsumexp3]

// [custom_vjp]
constexpr auto my_mul = calx::custom_vjp([](auto x, auto y) {
  return std::pair{x * y, [=](auto g) { return std::tuple{g * y, g * x}; }};
});
constexpr auto clip_gradient = calx::custom_vjp([](auto x) {
  return std::pair{x, [](auto g) { return std::tuple{calx::max(calx::min(g, 1.0), -1.0)}; }};
});
// [custom_vjp]

// [custom_jvp]
constexpr auto log1pexp = calx::custom_jvp([](auto x) {
  auto y = calx::where(x > 30.0, x, calx::log1p(calx::exp(calx::where(x > 30.0, 0.0, x))));
  return std::pair{y, [=](auto t) { return t * calx::sigmoid(x); }};
});
// [custom_jvp]

namespace {

void section(const char* title) { std::printf("\n## %s\n\n", title); }

template <class Program>
void show_ir(const Program& program) {
  std::printf("%s\n", calx::to_string(program).c_str());
}

void user_op_by_decomposition() {
  section("softplus: an op defined by its decomposition");
  // [softplus use]
  constexpr auto f = [](auto x) { return mylib::softplus(x) * x; };
  std::printf("f(1) = %.6f (on a double, the decomposition runs)\n", f(1.0));
  show_ir(calx::trace(f, 1.0));                       // one softplus node
  std::printf("grad f(1) = %.6f\n", calx::grad(f)(1.0));  // through log1p(exp(x))
  // [softplus use]
  std::printf("closed form: %.6f\n", std::log1p(std::exp(1.0)) + 1.0 / (1.0 + std::exp(-1.0)));
  auto g = calx::vmap(calx::grad(f))(std::vector<float>{-2.0f, 0.0f, 2.0f});
  std::printf("vmap(grad f)({-2, 0, 2}) = {%.5f, %.5f, %.5f}\n", g[0], g[1], g[2]);
}

void user_op_with_rules() {
  section("logaddexp: its own kernel and vjp");
  // [logaddexp use]
  constexpr auto f = [](auto a, auto b) { return mylib::logaddexp(a, b); };
  std::printf("f(1, 2) = %.6f (on doubles, its kernel runs)\n", f(1.0, 2.0));
  // Reverse mode uses its own vjp: exp(a - y) and exp(b - y).
  show_ir(calx::trace(calx::grad(f, calx::argnums<0, 1>), 1.0, 2.0));
  // Forward mode has no rule of the op's own: it differentiates the decomposition.
  auto [y, dy] = calx::jvp(f, std::tuple{1.0, 2.0}, std::tuple{1.0, 0.0});
  // [logaddexp use]
  std::printf("jvp: value %.6f, tangent %.6f (= 1 / (1 + e) = %.6f)\n", y, dy, 1.0 / (1.0 + std::exp(1.0)));
  // Under vmap the SIMD loop runs the decomposition (no SIMD kernel); the backward pass
  // keeps the op's vjp.
  const std::vector<double> a{0.0, 1.0, -3.0, 100.0}, b{0.0, 2.0, 4.0, -100.0};
  auto g = calx::vmap(calx::grad(f, calx::argnums<0, 1>))(a, b);
  for (std::size_t i = 0; i < a.size(); ++i)
    std::printf("grad at (%g, %g) = (%.6f, %.6f)\n", a[i], b[i], std::get<0>(g)[i], std::get<1>(g)[i]);
}

void user_op_calling_user_op() {
  section("logsumexp3: an op whose decomposition calls an op");
  constexpr auto f = [](auto a, auto b, auto c) { return mylib::logsumexp3(a, b, c); };
  show_ir(calx::trace(f, 1.0, 2.0, 3.0));
  auto [ga, gb, gc] = calx::grad(f, calx::argnums<0, 1, 2>)(1.0, 2.0, 3.0);
  std::printf("value %.6f, gradient (%.6f, %.6f, %.6f), sums to %.6f (softmax)\n", f(1.0, 2.0, 3.0), ga, gb, gc,
              ga + gb + gc);
}

void custom_vjp_rules() {
  section("custom_vjp: a forward and its backward closure");
  // [custom_vjp use]
  constexpr auto f = [](auto x) { return clip_gradient(x) * 10.0; };
  std::printf("f(2) = %g, grad f(2) = %g (10 clipped to 1)\n", f(2.0), calx::grad(f)(2.0));
  auto [gx, gy] = calx::grad(my_mul, calx::argnums<0, 1>)(3.0, 4.0);
  // [custom_vjp use]
  std::printf("grad my_mul(3, 4) = (%g, %g)\n", gx, gy);
  show_ir(calx::trace(f, 2.0));
  // The backward is traced code: it is differentiated again.
  constexpr auto cube = [](auto x) { return my_mul(my_mul(x, x), x); };
  std::printf("d2/dx2 x^3 at 2 = %g, hessian = %g\n", calx::grad(calx::grad(cube))(2.0), calx::hessian(cube)(2.0));
  // Forward mode differentiates the forward (JAX refuses jvp of a custom_vjp function).
  auto [v, t] = calx::jvp(f, std::tuple{2.0}, std::tuple{1.0});
  std::printf("jvp of f at 2: value %g, tangent %g (the forward's derivative)\n", v, t);
}

void custom_jvp_rules() {
  section("custom_jvp: a forward and its jvp closure");
  // [custom_jvp use]
  for (double x : {-1000.0, 0.0, 1000.0})
    std::printf("log1pexp(%g) = %g, grad = %g, second derivative = %g\n", x, log1pexp(x), calx::grad(log1pexp)(x),
                calx::grad(calx::grad(log1pexp))(x));
  // [custom_jvp use]
  auto g = calx::vmap(calx::grad(log1pexp))(std::vector<double>{-1000.0, 1000.0});
  std::printf("vmap(grad log1pexp)({-1000, 1000}) = {%g, %g}\n", g[0], g[1]);
}

}  // namespace

int main() {
  std::printf("# Extending calx\n");
  user_op_by_decomposition();
  user_op_with_rules();
  user_op_calling_user_op();
  custom_vjp_rules();
  custom_jvp_rules();
}
