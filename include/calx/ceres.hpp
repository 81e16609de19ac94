/// @file ceres.hpp
/// @brief `calx::ceres_cost_function<Functor, kNumResiduals, kParameterBlockSizes...>`: a
/// drop-in for `ceres::AutoDiffCostFunction` whose residuals and Jacobians are calx's
/// generated code instead of dual numbers. Optional: needs Ceres Solver (Debian's
/// libceres-dev); docs/ceres.md.
///
/// The functor is the one written for Ceres, `template <class T> constexpr bool
/// operator()(const T* x0, ..., T* residual) const`, stateless. calx calls it once, at
/// compile time, with `T` = `calx::ceres_scalar`, a traced number that takes the math Ceres
/// functors call unqualified (`sin(x)`, `sqrt(x)`, `T(2)`, found by argument-dependent lookup
/// as Jets' are) or through calx (`calx::sin(x)` does not compile for a Jet, so a functor
/// shared with AutoDiffCostFunction calls math unqualified).
#ifndef CALX_CERES_HPP
#define CALX_CERES_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/jacfwd.hpp>
#include <calx/jacrev.hpp>
#include <calx/math.hpp>
#include <calx/tracer.hpp>

#include <ceres/sized_cost_function.h>
#include <ceres/types.h>

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

/// The number type of a Ceres functor traced by calx, and the math on it. Its own namespace,
/// so that argument-dependent lookup finds `exp`, `sin`, ... as functions (calx's own are
/// function objects, which that lookup does not see).
namespace ceres_math {

/// A traced value, or a constant the functor wrote (`T(2)`, `T(0)`): constants are folded
/// as numbers until they meet a traced value, as a Jet's are.
struct scalar {
  tracer value{};         // value.graph == nullptr: the constant `constant`
  double constant = 0.0;  // (a symbolic zero tracer is the constant 0)

  constexpr scalar() = default;
  template <class N>
    requires std::is_arithmetic_v<N>
  constexpr explicit scalar(N c) : constant(static_cast<double>(c)) {}
  constexpr explicit scalar(tracer t) : value(t) {}
  constexpr bool traced() const { return value.graph != nullptr; }

  constexpr scalar& operator+=(const scalar& b);
  constexpr scalar& operator-=(const scalar& b);
  constexpr scalar& operator*=(const scalar& b);
  constexpr scalar& operator/=(const scalar& b);
};

/// What a comparison of two scalars gives: a bool where both are constants. A branch on a
/// traced value cannot be taken at compile time for every input (calx traces one program):
/// the trace records the refusal and goes on, and the cost function's call reports it.
struct condition {
  calx::detail::graph* graph = nullptr;  // non-null: a comparison of traced values
  bool value = false;
  static constexpr void report_branch(bool now) {
    if (now)
      calx::detail::trace_error("calx::ceres_cost_function: the functor branches on a parameter's value (a comparison "
                          "of traced numbers used as a bool); calx traces one program for every input: write "
                          "the residual without the branch (or with calx::where in a calx-only functor)");
  }
  constexpr explicit operator bool() const {
    if (graph != nullptr) graph->refuse(&report_branch);
    return value;
  }
};

namespace detail {
/// `f` on a's value (traced: a node), `on_numbers` on constants.
template <class F, class G>
constexpr scalar lift(F f, G on_numbers, const scalar& a) {
  if (!a.traced()) return scalar(on_numbers(a.constant));
  return scalar(static_cast<tracer>(f(a.value)));
}
template <class F, class G>
constexpr scalar lift(F f, G on_numbers, const scalar& a, const scalar& b) {
  if (!a.traced() && !b.traced()) return scalar(on_numbers(a.constant, b.constant));
  if (!a.traced()) return scalar(static_cast<tracer>(f(a.constant, b.value)));
  if (!b.traced()) return scalar(static_cast<tracer>(f(a.value, b.constant)));
  return scalar(static_cast<tracer>(f(a.value, b.value)));
}
template <class F>
constexpr scalar lift(F f, const scalar& a) {
  return lift(f, f, a);
}
template <class F>
constexpr scalar lift(F f, const scalar& a, const scalar& b) {
  return lift(f, f, a, b);
}
}  // namespace detail

// Arithmetic: scalar with scalar, and with plain numbers on either side.
#define CALX_CERES_BINARY(sym)                                                                           \
  constexpr scalar operator sym(const scalar& a, const scalar& b) {                                     \
    return detail::lift([](auto x, auto y) { return x sym y; }, a, b);                                  \
  }                                                                                                      \
  template <calx::number N>                                                                          \
  constexpr scalar operator sym(const scalar& a, N b) {                                                  \
    return a sym scalar(b);                                                                              \
  }                                                                                                      \
  template <calx::number N>                                                                          \
  constexpr scalar operator sym(N a, const scalar& b) {                                                  \
    return scalar(a) sym b;                                                                              \
  }                                                                                                      \
  constexpr scalar& scalar::operator sym##=(const scalar& b) { return *this = *this sym b; }
CALX_CERES_BINARY(+)
CALX_CERES_BINARY(-)
CALX_CERES_BINARY(*)
CALX_CERES_BINARY(/)
#undef CALX_CERES_BINARY

constexpr scalar operator-(const scalar& a) {
  return detail::lift([](auto x) { return -x; }, a);
}
constexpr scalar operator+(const scalar& a) { return a; }

#define CALX_CERES_COMPARE(sym)                                                                          \
  constexpr condition operator sym(const scalar& a, const scalar& b) {                                  \
    if (a.traced() || b.traced()) return condition{a.traced() ? a.value.graph : b.value.graph, false};    \
    return condition{nullptr, a.constant sym b.constant};                                                \
  }                                                                                                      \
  template <calx::number N>                                                                          \
  constexpr condition operator sym(const scalar& a, N b) {                                               \
    return a sym scalar(b);                                                                              \
  }                                                                                                      \
  template <calx::number N>                                                                          \
  constexpr condition operator sym(N a, const scalar& b) {                                               \
    return scalar(a) sym b;                                                                              \
  }
CALX_CERES_COMPARE(<)
CALX_CERES_COMPARE(<=)
CALX_CERES_COMPARE(>)
CALX_CERES_COMPARE(>=)
CALX_CERES_COMPARE(==)
CALX_CERES_COMPARE(!=)
#undef CALX_CERES_COMPARE

// The math of Ceres' Jets (ceres/jet.h), each through calx's op of the same meaning. On
// constants alone (sqrt(T(2))) the std:: function computes the number while tracing, which
// g++ evaluates at compile time and clang 14 cannot (docs/ceres.md): there the trace stops
// with a message.
namespace detail {
template <class R>
constexpr R on_constants(R r) {
#if defined(__clang__)
  calx::detail::trace_error("calx::ceres_cost_function: math on constants alone (sqrt(T(2))) cannot be computed "
                      "while clang traces the functor: write the number (T(1.4142135623730951)); g++ can");
#endif
  return r;
}
}  // namespace detail
#define CALX_CERES_UNARY(name, calx_fn)                                                                  \
  constexpr scalar name(const scalar& a) {                                                              \
    return detail::lift([](auto x) { return ::calx::calx_fn(x); },                                       \
                        [](double x) { return detail::on_constants(std::name(x)); }, a);                 \
  }
CALX_CERES_UNARY(abs, abs)
CALX_CERES_UNARY(fabs, abs)
CALX_CERES_UNARY(exp, exp)
CALX_CERES_UNARY(exp2, exp2)
CALX_CERES_UNARY(expm1, expm1)
CALX_CERES_UNARY(log, log)
CALX_CERES_UNARY(log2, log2)
CALX_CERES_UNARY(log10, log10)
CALX_CERES_UNARY(log1p, log1p)
CALX_CERES_UNARY(sqrt, sqrt)
CALX_CERES_UNARY(cbrt, cbrt)
CALX_CERES_UNARY(sin, sin)
CALX_CERES_UNARY(cos, cos)
CALX_CERES_UNARY(tan, tan)
CALX_CERES_UNARY(asin, asin)
CALX_CERES_UNARY(acos, acos)
CALX_CERES_UNARY(atan, atan)
CALX_CERES_UNARY(sinh, sinh)
CALX_CERES_UNARY(cosh, cosh)
CALX_CERES_UNARY(tanh, tanh)
CALX_CERES_UNARY(erf, erf)
CALX_CERES_UNARY(erfc, erfc)
#undef CALX_CERES_UNARY

#define CALX_CERES_BINARY_FN(name, calx_fn)                                                              \
  constexpr scalar name(const scalar& a, const scalar& b) {                                             \
    return detail::lift([](auto x, auto y) { return ::calx::calx_fn(x, y); },                            \
                        [](double x, double y) { return detail::on_constants(std::name(x, y)); }, a, b); \
  }                                                                                                      \
  template <calx::number N>                                                                          \
  constexpr scalar name(const scalar& a, N b) {                                                          \
    return name(a, scalar(b));                                                                           \
  }                                                                                                      \
  template <calx::number N>                                                                          \
  constexpr scalar name(N a, const scalar& b) {                                                          \
    return name(scalar(a), b);                                                                           \
  }
CALX_CERES_BINARY_FN(pow, pow)
CALX_CERES_BINARY_FN(atan2, atan2)
CALX_CERES_BINARY_FN(hypot, hypot)
CALX_CERES_BINARY_FN(fmin, min)
CALX_CERES_BINARY_FN(fmax, max)
#undef CALX_CERES_BINARY_FN

}  // namespace ceres_math

/// The number type calx passes a Ceres functor.
using ceres_scalar = ceres_math::scalar;

namespace detail {

/// The functor's residuals as a function calx traces: parameter blocks as `std::array`s of
/// tracers in, the residuals out twice (the value rides along the Jacobian as its aux, so
/// that one program gives both).
template <class Functor, int R>
struct ceres_residuals {
  static constexpr void report_false(bool now) {
    if (now)
      trace_error("calx::ceres_cost_function: the functor returned false while calx traced it; calx traces "
                  "one program for every input, so its result cannot depend on the parameters' values");
  }
  template <class... X>
  constexpr auto operator()(const X&... x) const {
    graph* g = nullptr;
    auto scalars = [&]<std::size_t B>(const std::array<tracer, B>& block) {
      std::array<ceres_scalar, B> s{};
      for (std::size_t k = 0; k < B; ++k) {
        s[k] = ceres_scalar(block[k]);
        if (block[k].graph != nullptr) g = block[k].graph;
      }
      return s;
    };
    const std::tuple<std::array<ceres_scalar, std::tuple_size_v<X>>...> in{scalars(x)...};
    std::array<ceres_scalar, static_cast<std::size_t>(R)> r{};
    const bool ok = std::apply(
        [&](const auto&... block) { return static_cast<bool>(Functor{}(block.data()..., r.data())); }, in);
    if (!ok) g->refuse(&report_false);
    std::array<tracer, static_cast<std::size_t>(R)> out{};
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = r[k].traced() ? r[k].value : in_graph(*g, g->constant(r[k].constant));
    return std::pair{out, out};
  }
};

/// Row `row` of Jacobian block `I` as calx lays it out (each residual: the blocks' rows, a
/// tuple of them for several blocks).
template <std::size_t I, std::size_t Blocks, class Row>
constexpr const auto& ceres_block_row(const Row& row) {
  if constexpr (Blocks == 1)
    return row;
  else
    return std::get<I>(row);
}

}  // namespace detail

/// `ceres::AutoDiffCostFunction<Functor, kNumResiduals, kParameterBlockSizes...>` with calx
/// computing the residuals and the Jacobians: the same functor, the same Ceres interface.
/// Each Jacobian block is written row-major, as Ceres asks; blocks whose pointer is null
/// (parameters held constant) are not written. The Jacobian is calx's jacrev where there
/// are fewer residuals than parameters, jacfwd otherwise.
template <class Functor, int kNumResiduals, int... kParameterBlockSizes>
class ceres_cost_function final : public ceres::SizedCostFunction<kNumResiduals, kParameterBlockSizes...> {
  static_assert(kNumResiduals != ceres::DYNAMIC,
                "calx::ceres_cost_function: the number of residuals must be fixed (ceres::DYNAMIC is not "
                "supported: calx compiles the residuals for fixed sizes)");
  static_assert(std::is_empty_v<Functor> && std::is_default_constructible_v<Functor>,
                "calx::ceres_cost_function: the functor must be stateless (no data members: calx traces it "
                "at compile time); pass data as a parameter block held constant "
                "(ceres::Problem::SetParameterBlockConstant)");

  static constexpr std::size_t blocks = sizeof...(kParameterBlockSizes);
  static constexpr bool reverse = kNumResiduals < (0 + ... + kParameterBlockSizes);
  using residuals_fn = detail::ceres_residuals<Functor, kNumResiduals>;

 public:
  ceres_cost_function() = default;
  /// As AutoDiffCostFunction's: takes the functor (by default owning it).
  explicit ceres_cost_function(Functor* functor, ceres::Ownership ownership = ceres::TAKE_OWNERSHIP)
      : functor_(ownership == ceres::TAKE_OWNERSHIP ? functor : nullptr) {}

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    return evaluate(parameters, residuals, jacobians, std::make_index_sequence<blocks>{});
  }

  const Functor& functor() const { return functor_ ? *functor_ : stateless_; }

 private:
  template <std::size_t... I>
  static bool evaluate(double const* const* parameters, double* residuals, double** jacobians,
                       std::index_sequence<I...>) {
    bool any_jacobian = false;
    if (jacobians != nullptr) any_jacobian = ((jacobians[I] != nullptr) || ...);
    // The residuals alone: the functor itself on the numbers, as AutoDiffCostFunction runs
    // it (the best code there is for them; its `false` is then Ceres' to see).
    if (!any_jacobian) return static_cast<bool>(Functor{}(parameters[I]..., residuals));
    return evaluate_jacobian<I...>(parameters, residuals, jacobians);
  }

  template <std::size_t... I>
  static bool evaluate_jacobian(double const* const* parameters, double* residuals, double** jacobians) {
    constexpr int sizes[] = {kParameterBlockSizes...};
    const std::tuple<std::array<double, static_cast<std::size_t>(kParameterBlockSizes)>...> x{
        load<static_cast<std::size_t>(sizes[I])>(parameters[I])...};
    const auto jr = [&] {
      if constexpr (reverse)
        return calx::jacrev(residuals_fn{}, calx::argnums<static_cast<int>(I)...>, calx::has_aux)(std::get<I>(x)...);
      else
        return calx::jacfwd(residuals_fn{}, calx::argnums<static_cast<int>(I)...>, calx::has_aux)(std::get<I>(x)...);
    }();
    if constexpr (detail::holds_invalid_program<std::remove_cvref_t<decltype(jr)>>::value) {
      return false;
    } else {
      write_jacobian<I...>(jr, residuals, jacobians);
      return true;
    }
  }

  template <std::size_t... I, class JR>
  static void write_jacobian(const JR& jr, double* residuals, double** jacobians) {
    constexpr int sizes[] = {kParameterBlockSizes...};
    const auto& J = jr.first;
    for (std::size_t k = 0; k < jr.second.size(); ++k) residuals[k] = jr.second[k];
    auto write = [&]<std::size_t Block>(std::integral_constant<std::size_t, Block>) {
      double* out = jacobians[Block];
      if (out == nullptr) return;
      constexpr std::size_t n = static_cast<std::size_t>(sizes[Block]);
      for (std::size_t row = 0; row < J.size(); ++row) {
        const auto& block_row = detail::ceres_block_row<Block, blocks>(J[row]);
        for (std::size_t c = 0; c < n; ++c) out[row * n + c] = block_row[c];
      }
    };
    (write(std::integral_constant<std::size_t, I>{}), ...);
  }

  template <std::size_t B>
  static std::array<double, B> load(const double* p) {
    std::array<double, B> a;
    for (std::size_t k = 0; k < B; ++k) a[k] = p[k];
    return a;
  }

  std::unique_ptr<Functor> functor_;
  static constexpr Functor stateless_{};
};

CALX_END_NAMESPACE

#endif  // CALX_CERES_HPP
