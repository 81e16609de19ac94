/// @file interop/scalar.hpp
/// @brief `calx::interop::scalar`: a traced number, or a constant folded as a number, with
/// the math of C++ number types found by argument-dependent lookup: what code written for
/// another library's number type (a Ceres Jet, an Eigen matrix's coefficients) computes on
/// while calx traces it (calx/ceres.hpp, calx/eigen.hpp).
#ifndef CALX_INTEROP_SCALAR_HPP
#define CALX_INTEROP_SCALAR_HPP

#include <calx/config.hpp>
#include <calx/math.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/ops/hyperbolic.hpp>
#include <calx/ops/inverse_trigonometric.hpp>
#include <calx/ops/powers.hpp>
#include <calx/ops/selection.hpp>
#include <calx/ops/special.hpp>
#include <calx/ops/trigonometric.hpp>
#include <calx/tracer.hpp>

#include <cmath>
#include <type_traits>

CALX_BEGIN_NAMESPACE

/// The number type of code written for other libraries' number types (a Ceres functor's
/// `T`, the coefficients of an Eigen matrix), traced by calx, and the math on it. Its own
/// namespace, so that argument-dependent lookup finds `exp`, `sin`, ... as functions
/// (calx's own are function objects, which that lookup does not see).
namespace interop {

/// A traced value, or a constant the code wrote (`T(2)`, `T(0)`, `Matrix3::Identity()`):
/// constants are folded as numbers until they meet a traced value, as a Jet's are.
struct scalar {
  tracer value{};         // value.graph == nullptr: the constant `constant`
  double constant = 0.0;  // (a symbolic zero tracer is the constant 0)

  constexpr scalar() = default;
  template <class N>
    requires std::is_arithmetic_v<N>
  constexpr explicit scalar(N c) : constant(static_cast<double>(c)) {}
  constexpr explicit scalar(tracer t) : value(t) {}
  constexpr bool traced() const { return value.graph != nullptr; }
  /// This value as a node of `g` (a constant becomes a constant node).
  constexpr tracer in(calx::detail::graph& g) const {
    return traced() ? value : calx::detail::in_graph(g, g.constant(constant));
  }

  constexpr scalar& operator+=(const scalar& b);
  constexpr scalar& operator-=(const scalar& b);
  constexpr scalar& operator*=(const scalar& b);
  constexpr scalar& operator/=(const scalar& b);
};

/// What a comparison of two scalars gives: a bool where both are constants. A branch on a
/// traced value cannot be taken at compile time for every input (calx traces one program):
/// the trace records the refusal and goes on, and the transform's call reports it.
struct condition {
  calx::detail::graph* graph = nullptr;  // non-null: a comparison of traced values
  bool value = false;
  static constexpr void report_branch(bool now) {
    if (now)
      calx::detail::trace_error("calx: the function branches on a traced value (a comparison of traced numbers "
                                "used as a bool); calx traces one program for every input: write it without the "
                                "branch (or with calx::where in a calx-only function)");
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
namespace detail {
/// Whether `a` is the constant `c`.
constexpr bool is_constant(const scalar& a, double c) { return !a.traced() && a.constant == c; }
/// `a op b` where a constant 0 (or 1) makes it another operand or 0, as code written for
/// numbers means it: the zeros and ones of a rotation matrix, a comma-initialised Jacobian,
/// `Matrix3::Identity()` are structure, so no node is recorded for them. (0 * x is 0 here
/// even for an infinite or NaN x: the zero is structural, as in a sparse product.) `r` is
/// set and true returned where that applies.
constexpr bool fold_structure(char op, const scalar& a, const scalar& b, scalar& r) {
  if (a.traced() == b.traced()) return false;  // both constants are computed; both traced recorded
  switch (op) {
    case '+':
      if (is_constant(a, 0.0)) return r = b, true;
      if (is_constant(b, 0.0)) return r = a, true;
      return false;
    case '-':
      if (is_constant(b, 0.0)) return r = a, true;
      return false;
    case '*':
      if (is_constant(a, 0.0) || is_constant(b, 0.0)) return r = scalar(0.0), true;
      if (is_constant(a, 1.0)) return r = b, true;
      if (is_constant(b, 1.0)) return r = a, true;
      return false;
    default:  // '/'
      if (is_constant(a, 0.0)) return r = scalar(0.0), true;
      if (is_constant(b, 1.0)) return r = a, true;
      return false;
  }
}
}  // namespace detail

// `name` (a function of two scalars, returning `R`) with a plain number on either side:
// the number as a constant scalar.
#define CALX_INTEROP_WITH_NUMBERS(R, name)          \
  template <calx::number N>                         \
  constexpr R name(const scalar& a, N b) {          \
    return name(a, scalar(b));                      \
  }                                                 \
  template <calx::number N>                         \
  constexpr R name(N a, const scalar& b) {          \
    return name(scalar(a), b);                      \
  }

#define CALX_INTEROP_BINARY(sym)                                                                           \
  constexpr scalar operator sym(const scalar& a, const scalar& b) {                                     \
    if (scalar r; detail::fold_structure(#sym[0], a, b, r)) return r;                                   \
    return detail::lift([](auto x, auto y) { return x sym y; }, a, b);                                  \
  }                                                                                                      \
  CALX_INTEROP_WITH_NUMBERS(scalar, operator sym)                                                        \
  constexpr scalar& scalar::operator sym##=(const scalar& b) { return *this = *this sym b; }
CALX_INTEROP_BINARY(+)
CALX_INTEROP_BINARY(-)
CALX_INTEROP_BINARY(*)
CALX_INTEROP_BINARY(/)
#undef CALX_INTEROP_BINARY

constexpr scalar operator-(const scalar& a) {
  return detail::lift([](auto x) { return -x; }, a);
}
constexpr scalar operator+(const scalar& a) { return a; }

#define CALX_INTEROP_COMPARE(sym)                                                                          \
  constexpr condition operator sym(const scalar& a, const scalar& b) {                                  \
    if (a.traced() || b.traced()) return condition{a.traced() ? a.value.graph : b.value.graph, false};    \
    return condition{nullptr, a.constant sym b.constant};                                                \
  }                                                                                                      \
  CALX_INTEROP_WITH_NUMBERS(condition, operator sym)
CALX_INTEROP_COMPARE(<)
CALX_INTEROP_COMPARE(<=)
CALX_INTEROP_COMPARE(>)
CALX_INTEROP_COMPARE(>=)
CALX_INTEROP_COMPARE(==)
CALX_INTEROP_COMPARE(!=)
#undef CALX_INTEROP_COMPARE

// The math of Ceres' Jets (ceres/jet.h), each through calx's op of the same meaning. On
// constants alone (sqrt(T(2))) the std:: function computes the number while tracing, which
// g++ evaluates at compile time and clang 14 cannot (docs/ceres.md): there the trace stops
// with a message.
namespace detail {
template <class R>
constexpr R on_constants(R r) {
#if defined(__clang__)
  calx::detail::trace_error("calx: math on constants alone (sqrt(T(2))) cannot be computed while clang traces "
                            "the function: write the number (T(1.4142135623730951)); g++ can");
#endif
  return r;
}
}  // namespace detail
#define CALX_INTEROP_UNARY(name, calx_fn)                                                                  \
  constexpr scalar name(const scalar& a) {                                                              \
    return detail::lift([](auto x) { return ::calx::calx_fn(x); },                                       \
                        [](double x) { return detail::on_constants(std::name(x)); }, a);                 \
  }
CALX_INTEROP_UNARY(abs, abs)
CALX_INTEROP_UNARY(fabs, abs)
CALX_INTEROP_UNARY(exp, exp)
CALX_INTEROP_UNARY(exp2, exp2)
CALX_INTEROP_UNARY(expm1, expm1)
CALX_INTEROP_UNARY(log, log)
CALX_INTEROP_UNARY(log2, log2)
CALX_INTEROP_UNARY(log10, log10)
CALX_INTEROP_UNARY(log1p, log1p)
CALX_INTEROP_UNARY(sqrt, sqrt)
CALX_INTEROP_UNARY(cbrt, cbrt)
CALX_INTEROP_UNARY(sin, sin)
CALX_INTEROP_UNARY(cos, cos)
CALX_INTEROP_UNARY(tan, tan)
CALX_INTEROP_UNARY(asin, asin)
CALX_INTEROP_UNARY(acos, acos)
CALX_INTEROP_UNARY(atan, atan)
CALX_INTEROP_UNARY(sinh, sinh)
CALX_INTEROP_UNARY(cosh, cosh)
CALX_INTEROP_UNARY(tanh, tanh)
CALX_INTEROP_UNARY(erf, erf)
CALX_INTEROP_UNARY(erfc, erfc)
#undef CALX_INTEROP_UNARY

#define CALX_INTEROP_BINARY_FN(name, calx_fn)                                                              \
  constexpr scalar name(const scalar& a, const scalar& b) {                                             \
    return detail::lift([](auto x, auto y) { return ::calx::calx_fn(x, y); },                            \
                        [](double x, double y) { return detail::on_constants(std::name(x, y)); }, a, b); \
  }                                                                                                      \
  CALX_INTEROP_WITH_NUMBERS(scalar, name)
CALX_INTEROP_BINARY_FN(pow, pow)
CALX_INTEROP_BINARY_FN(atan2, atan2)
CALX_INTEROP_BINARY_FN(hypot, hypot)
CALX_INTEROP_BINARY_FN(fmin, min)
CALX_INTEROP_BINARY_FN(fmax, max)
#undef CALX_INTEROP_BINARY_FN
#undef CALX_INTEROP_WITH_NUMBERS

}  // namespace interop

CALX_END_NAMESPACE

#endif  // CALX_INTEROP_SCALAR_HPP
