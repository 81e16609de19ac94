/// @file tests/_include/user_ops.hpp
/// @brief The user-defined ops and custom-rule functions of the open-op-set issue, written as
/// a user writes them (specialisations of calx::op_traits in the user's code, closures for
/// custom_vjp / custom_jvp), and for each a reference built from calx's built-in ops with the
/// same value. The tests run both through every transform and compare.
#ifndef CALX_TESTS_USER_OPS_HPP
#define CALX_TESTS_USER_OPS_HPP

#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <concepts>
#include <tuple>
#include <utility>

namespace user {

// softplus: a decomposition only. Every rule and the SIMD loop come from log1p(exp(x)).
struct softplus_op {};
// logaddexp: its own scalar kernel and vjp; no SIMD kernel and no jvp rule, which come from
// its decomposition.
struct logaddexp_op {};
// A user op that calls a user op: log(cosh)-like, softplus(x) + softplus(-x) - log(4).
struct softabs_op {};

}  // namespace user

template <>
struct calx::op_traits<user::softplus_op> {
  static constexpr const char* name = "softplus";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return calx::log1p(calx::exp(x)); }
};

template <>
struct calx::op_traits<user::logaddexp_op> {
  static constexpr const char* name = "logaddexp";
  static constexpr int arity = 2;
  static constexpr bool calls_out_of_line = true;  // its kernel calls libm's exp and log1p
  template <std::floating_point T>
  static T kernel(T a, T b) {
    const T m = std::fmax(a, b);
    return m + std::log1p(std::exp(-std::fabs(a - b)));
  }
  static constexpr auto vjp(const auto& ct, const auto& y, const auto& a, const auto& b) {
    return std::array{ct * calx::exp(a - y), ct * calx::exp(b - y)};
  }
  static constexpr auto decomposition(const auto& a, const auto& b) {
    auto m = calx::max(a, b);
    return m + calx::log1p(calx::exp(-calx::abs(a - b)));
  }
};

namespace user {
inline constexpr calx::op_fn<softplus_op> softplus{};
inline constexpr calx::op_fn<logaddexp_op> logaddexp{};
}  // namespace user

template <>
struct calx::op_traits<user::softabs_op> {
  static constexpr const char* name = "softabs";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return user::softplus(x) + user::softplus(-x) - 1.3862943611198906; }
};

namespace user {

inline constexpr calx::op_fn<softabs_op> softabs{};

inline constexpr auto my_mul = calx::custom_vjp([](auto x, auto y) {
  return std::pair{x * y, [=](auto g) { return std::tuple{g * y, g * x}; }};
});
inline constexpr auto clip_gradient = calx::custom_vjp([](auto x) {
  return std::pair{x, [](auto g) { return std::tuple{calx::max(calx::min(g, 1.0), -1.0)}; }};
});
inline constexpr auto log1pexp = calx::custom_jvp([](auto x) {
  auto y = calx::where(x > 30.0, x, calx::log1p(calx::exp(calx::where(x > 30.0, 0.0, x))));
  return std::pair{y, [=](auto t) { return t * calx::sigmoid(x); }};
});

// Functions of (x, y) for the transform matrix, each with a reference of the same value
// written with built-in ops.
inline constexpr auto f_softplus = [](auto x, auto y) { return softplus(x) * y + softplus(y); };
inline constexpr auto r_softplus = [](auto x, auto y) {
  return calx::log1p(calx::exp(x)) * y + calx::log1p(calx::exp(y));
};
inline constexpr auto f_logaddexp = [](auto x, auto y) { return logaddexp(x, y) * x; };
inline constexpr auto r_logaddexp = [](auto x, auto y) {
  return (calx::max(x, y) + calx::log1p(calx::exp(-calx::abs(x - y)))) * x;
};
inline constexpr auto f_softabs = [](auto x, auto y) { return softabs(x * y) + x; };
inline constexpr auto r_softabs = [](auto x, auto y) {
  return calx::log1p(calx::exp(x * y)) + calx::log1p(calx::exp(-(x * y))) - 1.3862943611198906 + x;
};
inline constexpr auto f_my_mul = [](auto x, auto y) { return my_mul(x, y) + my_mul(calx::sin(x), x); };
inline constexpr auto r_my_mul = [](auto x, auto y) { return x * y + calx::sin(x) * x; };
inline constexpr auto f_log1pexp = [](auto x, auto y) { return log1pexp(x) * y; };
inline constexpr auto r_log1pexp = [](auto x, auto y) { return calx::log1p(calx::exp(x)) * y; };

}  // namespace user

#endif  // CALX_TESTS_USER_OPS_HPP
