/// @file ops/arithmetic.hpp
/// @brief Inputs, constants, +, -, *, /, negation and stop_gradient: kernels, rules, folding.
#ifndef CALX_OPS_ARITHMETIC_HPP
#define CALX_OPS_ARITHMETIC_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/detail/ops/scalar_math.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {
constexpr double const_value(const graph& g, int id) { return g.nodes[id].value; }
constexpr bool both_constant(const graph& g, const int* in) {
  return g.is_constant(in[0]) && g.is_constant(in[1]);
}
/// Commutative ops keep their operands in id order, so a*b and b*a are one node.
constexpr void sort_operands(int* in) {
  if (in[1] < in[0]) {
    int t = in[0];
    in[0] = in[1];
    in[1] = t;
  }
}
}  // namespace detail

// The structural ops: their nodes are made by the graph itself (detail/ir/graph.hpp), and
// the passes and codegen treat them directly; the traits name them.
template <>
struct op_traits<input_op> {
  static constexpr const char* name = "input";
  static constexpr int arity = 0;
};

template <>
struct op_traits<constant_op> {
  static constexpr const char* name = "constant";
  static constexpr int arity = 0;
};

/// Result `k` of an op with several results.
template <>
struct op_traits<get_op> {
  static constexpr const char* name = "get";
  static constexpr int arity = 1;
};

template <>
struct op_traits<neg_op> {
  static constexpr const char* name = "neg";
  static constexpr int arity = 1;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr bool zero_preserving = true;
  static constexpr unsigned linear_in = 0b1;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a) { return -a; }
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] < 0) return -1;
    if (g.is_constant(in[0])) return g.constant(-detail::const_value(g, in[0]));
    if (g.is_builtin(in[0], detail::builtin_code_v<neg_op>)) return g.operand(in[0], 0);
    // -(x * c) is x * (-c) exactly (rounding is symmetric): one op, not two.
    if (g.is_builtin(in[0], detail::builtin_code_v<mul_op>)) {
      const int a = g.operand(in[0], 0), b = g.operand(in[0], 1);
      if (g.is_constant(b)) return detail::emit<mul_op>(detail::node_of(g, a), -detail::const_value(g, b)).id;
      if (g.is_constant(a)) return detail::emit<mul_op>(detail::node_of(g, b), -detail::const_value(g, a)).id;
    }
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto&, const auto&, const auto& t) { return -t; }
  static constexpr std::array<tracer, 1> vjp(const auto& ct, const auto&, const auto&) { return {-ct}; }
};

template <>
struct op_traits<add_op> {
  static constexpr const char* name = "add";
  static constexpr int arity = 2;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr bool zero_preserving = true;
  static constexpr unsigned linear_in = 0b11;
  static constexpr bool jointly_linear = true;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a, const T& b) { return a + b; }
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] < 0) return in[1];
    if (in[1] < 0) return in[0];
    if (detail::both_constant(g, in)) return g.constant(detail::const_value(g, in[0]) + detail::const_value(g, in[1]));
    // x + (-0) is x for every x, signed zeros included; x + (+0) is not (it turns -0 into +0).
    if (g.is_constant_bits(in[0], -0.0)) return in[1];
    if (g.is_constant_bits(in[1], -0.0)) return in[0];
    // x + (-y) is x - y exactly (IEEE defines subtraction so); reverse mode makes many.
    if (g.is_builtin(in[1], detail::builtin_code_v<neg_op>))
      return detail::emit<sub_op>(detail::node_of(g, in[0]), detail::node_of(g, g.operand(in[1], 0))).id;
    if (g.is_builtin(in[0], detail::builtin_code_v<neg_op>))
      return detail::emit<sub_op>(detail::node_of(g, in[1]), detail::node_of(g, g.operand(in[0], 0))).id;
    detail::sort_operands(in);
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto&, const auto&, const auto&, const auto& ta, const auto& tb) { return ta + tb; }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto&, const auto&, const auto&) { return {ct, ct}; }
};

template <>
struct op_traits<sub_op> {
  static constexpr const char* name = "sub";
  static constexpr int arity = 2;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr bool zero_preserving = true;
  static constexpr unsigned linear_in = 0b11;
  static constexpr bool jointly_linear = true;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a, const T& b) { return a - b; }
  static constexpr int simplify(auto& g, int* in) {
    if (in[1] < 0) return in[0];
    if (in[0] < 0) return detail::emit<neg_op>(detail::node_of(g, in[1])).id;
    if (detail::both_constant(g, in)) return g.constant(detail::const_value(g, in[0]) - detail::const_value(g, in[1]));
    if (g.is_constant_bits(in[1], 0.0)) return in[0];  // x - (+0) is x exactly; x - (-0) is not
    if (g.is_builtin(in[1], detail::builtin_code_v<neg_op>))  // x - (-y) is x + y exactly
      return detail::emit<add_op>(detail::node_of(g, in[0]), detail::node_of(g, g.operand(in[1], 0))).id;
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto&, const auto&, const auto&, const auto& ta, const auto& tb) { return ta - tb; }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto&, const auto&, const auto&) { return {ct, -ct}; }
};

template <>
struct op_traits<mul_op> {
  static constexpr const char* name = "mul";
  static constexpr int arity = 2;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr bool zero_preserving = true;
  static constexpr unsigned linear_in = 0b11;  // in either factor, not in both
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a, const T& b) { return a * b; }
  static constexpr int simplify(auto& g, int* in) {
    // A symbolic zero times anything is a symbolic zero (JAX's rule: no inf * 0 = NaN).
    if (in[0] < 0 || in[1] < 0) return -1;
    if (detail::both_constant(g, in)) return g.constant(detail::const_value(g, in[0]) * detail::const_value(g, in[1]));
    if (g.is_constant(in[0], 1.0)) return in[1];
    if (g.is_constant(in[1], 1.0)) return in[0];
    if (g.is_constant(in[0], -1.0)) return detail::emit<neg_op>(detail::node_of(g, in[1])).id;
    if (g.is_constant(in[1], -1.0)) return detail::emit<neg_op>(detail::node_of(g, in[0])).id;
    // (-x) * c is x * (-c) exactly.
    for (int k = 0; k < 2; ++k)
      if (g.is_constant(in[1 - k]) && g.is_builtin(in[k], detail::builtin_code_v<neg_op>))
        return detail::emit<mul_op>(detail::node_of(g, g.operand(in[k], 0)), -detail::const_value(g, in[1 - k])).id;
    detail::sort_operands(in);
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto&, const auto& a, const auto& b, const auto& ta, const auto& tb) {
    return ta * b + a * tb;
  }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto&, const auto& a, const auto& b) {
    return {ct * b, a * ct};
  }
};

template <>
struct op_traits<div_op> {
  static constexpr const char* name = "div";
  static constexpr int arity = 2;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr bool zero_preserving = true;
  static constexpr unsigned linear_in = 0b01;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::divide(a, b);  // on a GPU, one reciprocal per divisor
    else
      return a / b;
  }
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] < 0) return -1;
    if (in[1] < 0) detail::trace_error("calx internal: division by a symbolic zero");
    if (detail::both_constant(g, in)) return g.constant(detail::const_value(g, in[0]) / detail::const_value(g, in[1]));
    if (g.is_constant(in[1], 1.0)) return in[0];
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto& y, const auto&, const auto& b, const auto& ta, const auto& tb) {
    return (ta - tb * y) / b;
  }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto& y, const auto&, const auto& b) {
    tracer ga = ct / b;
    return {ga, -(ga * y)};
  }
};

/// Identity on values; its derivative is zero in every mode.
template <>
struct op_traits<stop_gradient_op> {
  static constexpr const char* name = "stop_gradient";
  static constexpr int arity = 1;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr unsigned linear_in = 0b1;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a) { return a; }
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] < 0 || g.is_constant(in[0])) return in[0];
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto&, const auto&, const auto&) { return tracer{}; }
  static constexpr std::array<tracer, 1> vjp(const auto&, const auto&, const auto&) { return {tracer{}}; }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_ARITHMETIC_HPP
