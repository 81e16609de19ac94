/// @file ops/selection.hpp
/// @brief Comparisons (giving masks), where, abs, sign, min and max: the ops whose
/// derivatives are piecewise. Where a derivative is undefined they follow JAX:
/// abs'(0) = 1 (the x >= 0 side), min/max split the derivative 1/2-1/2 at ties, and the
/// predicate of where has no derivative.
#ifndef CALX_OPS_SELECTION_HPP
#define CALX_OPS_SELECTION_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/scalar_math.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/tracer.hpp>

#include <array>

CALX_BEGIN_NAMESPACE

namespace detail {
/// Traits shared by the six comparisons: a mask result, folding on constants, no rules
/// (a mask has no tangent, and cotangents do not flow through comparisons).
template <class Compare>
struct comparison_op {
  static constexpr int arity = 2;
  static constexpr value_kind result = value_kind::boolean;
  template <class T>
  CALX_HOST_DEVICE static constexpr auto kernel(const T& a, const T& b) { return Compare{}(a, b); }
  static constexpr int simplify(auto& g, int* in) {
    if (both_constant(g, in))
      return g.constant(Compare{}(const_value(g, in[0]), const_value(g, in[1])) ? 1.0 : 0.0, value_kind::boolean);
    return no_simplification;
  }
};
struct less {
  template <class T>
  CALX_HOST_DEVICE constexpr auto operator()(const T& a, const T& b) const { return a < b; }
};
struct less_equal {
  template <class T>
  CALX_HOST_DEVICE constexpr auto operator()(const T& a, const T& b) const { return a <= b; }
};
struct greater {
  template <class T>
  CALX_HOST_DEVICE constexpr auto operator()(const T& a, const T& b) const { return a > b; }
};
struct greater_equal {
  template <class T>
  CALX_HOST_DEVICE constexpr auto operator()(const T& a, const T& b) const { return a >= b; }
};
struct equal_to {
  template <class T>
  CALX_HOST_DEVICE constexpr auto operator()(const T& a, const T& b) const { return a == b; }
};
struct not_equal_to {
  // !(a == b), not a != b: xsimd 8.1's AVX `!=` is an ordered compare, false for NaN.
  template <class T>
  CALX_HOST_DEVICE constexpr auto operator()(const T& a, const T& b) const { return !(a == b); }
};

/// d max(x, y) / dx as JAX writes it: 1 where x wins, 1/2 at a tie, 0 where y wins.
constexpr tracer balanced_share(const auto& x, const auto& y, const auto& z) {
  return calx::where(x == z, calx::where(y == z, 0.5, 1.0), 0.0);
}
}  // namespace detail

template <>
struct op_traits<lt_op> : detail::comparison_op<detail::less> {
  static constexpr const char* name = "lt";
};
template <>
struct op_traits<le_op> : detail::comparison_op<detail::less_equal> {
  static constexpr const char* name = "le";
};
template <>
struct op_traits<gt_op> : detail::comparison_op<detail::greater> {
  static constexpr const char* name = "gt";
};
template <>
struct op_traits<ge_op> : detail::comparison_op<detail::greater_equal> {
  static constexpr const char* name = "ge";
};
template <>
struct op_traits<eq_op> : detail::comparison_op<detail::equal_to> {
  static constexpr const char* name = "eq";
};
template <>
struct op_traits<ne_op> : detail::comparison_op<detail::not_equal_to> {
  static constexpr const char* name = "ne";
};

template <>
struct op_traits<where_op> {
  static constexpr const char* name = "where";
  static constexpr int arity = 3;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr unsigned mask_operands = 0b001;  // the predicate
  static constexpr unsigned linear_in = 0b110;      // in the branches, for a fixed predicate
  static constexpr bool jointly_linear = true;
  template <class M, class T>
  CALX_HOST_DEVICE static constexpr T kernel(const M& c, const T& a, const T& b) {
    using detail::scalar::select;
    return select(c, a, b);
  }
  static constexpr int simplify(auto& g, int* in) {
    if (g.is_constant(in[0])) return g.nodes[in[0]].value != 0.0 ? in[1] : in[2];
    if (in[1] == in[2]) return in[1];
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto&, const auto& c, const auto&, const auto&, const auto&,
                            const auto& ta, const auto& tb) {
    if (ta.is_zero() && tb.is_zero()) return tracer{};
    return calx::where(c, ta, tb);
  }
  static constexpr std::array<tracer, 3> vjp(const auto& ct, const auto&, const auto& c, const auto&,
                                             const auto&) {
    return {tracer{}, calx::where(c, ct, 0.0), calx::where(c, 0.0, ct)};
  }
};

template <>
struct op_traits<sign_op> {
  static constexpr const char* name = "sign";
  static constexpr int arity = 1;
  static constexpr detail::value_kind result = detail::value_kind::real;
  /// -1, 0 or 1; sign(±0) = ±0 and sign(NaN) = NaN.
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& x) {
    using detail::scalar::select;
    return select(x > T(0), T(1), select(x < T(0), T(-1), x));
  }
  static constexpr tracer jvp(const auto&, const auto&, const auto&) { return tracer{}; }
  static constexpr std::array<tracer, 1> vjp(const auto&, const auto&, const auto&) { return {tracer{}}; }
};

template <>
struct op_traits<abs_op> {
  static constexpr const char* name = "abs";
  static constexpr int arity = 1;
  static constexpr detail::value_kind result = detail::value_kind::real;
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::abs; return abs(x); }
  // JAX's rule (lax._abs_jvp_rule): select(x >= 0, t, -t), so abs'(0) = abs'(-0) = 1.
  static constexpr tracer jvp(const auto&, const auto& x, const auto& t) { return calx::where(x >= 0.0, t, -t); }
  static constexpr std::array<tracer, 1> vjp(const auto& ct, const auto&, const auto& x) {
    return {calx::where(x >= 0.0, ct, -ct)};
  }
};

namespace detail {
/// Traits shared by min and max, which propagate NaN like JAX's (and unlike std::min).
template <bool IsMax>
struct extremum_op {
  static constexpr int arity = 2;
  /// For folds on batches (`detail::fold_batches`), which take a faster path for these two.
  static constexpr bool extremum_is_max = IsMax;
  static constexpr value_kind result = value_kind::real;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a, const T& b) {
    using detail::scalar::select;
    // b where a > b fails (b NaN included), then a where a is NaN (a == a fails): JAX's NaN
    // propagation. Not `!(a == a)`: xsimd 8.1 spells `!` of an AVX mask as a compare with
    // false in two SSE halves (five instructions; logsumexp's max ran 3x the hand loop's).
    if constexpr (IsMax)
      return select(a == a, select(a > b, a, b), a);
    else
      return select(a == a, select(a < b, a, b), a);
  }
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] == in[1]) return in[0];
    if (both_constant(g, in)) return g.constant(kernel(const_value(g, in[0]), const_value(g, in[1])));
    return no_simplification;
  }
  static constexpr tracer jvp(const auto& y, const auto& a, const auto& b, const auto& ta, const auto& tb) {
    tracer r = ta.is_zero() ? tracer{} : ta * balanced_share(a, b, y);
    return tb.is_zero() ? r : r + tb * balanced_share(b, a, y);
  }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto& y, const auto& a, const auto& b) {
    return {ct * balanced_share(a, b, y), ct * balanced_share(b, a, y)};
  }
};
}  // namespace detail

template <>
struct op_traits<min_op> : detail::extremum_op<false> {
  static constexpr const char* name = "min";
};
template <>
struct op_traits<max_op> : detail::extremum_op<true> {
  static constexpr const char* name = "max";
};

CALX_END_NAMESPACE

#endif // CALX_OPS_SELECTION_HPP
