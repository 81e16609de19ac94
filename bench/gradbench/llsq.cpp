/// @file bench/gradbench/llsq.cpp
/// @brief GradBench's llsq (evals/llsq): linear least squares of a polynomial of m
/// coefficients x against sign(t) at n points t_i = -1 + 2 i / (n - 1),
/// (1/2) sum_i (sign(t_i) - sum_j x_j t_i^j)^2, and its gradient in x.
///
/// m is a compile-time size (the eval's default, 128); the points are a runtime batch of any n.
#include "protocol.hpp"

#include <calx/calx.hpp>

#include <array>
#include <vector>

namespace calx_gradbench {
namespace {

template <std::size_t M>
struct llsq {
  /// [1, t, ..., t^(M-1)] from [1, t, ..., t^(L-1)] and t^L, doubling: log2(M) products and
  /// concatenations, as many multiplications as the running product of the eval's loop.
  template <std::size_t L, class P, class TL>
  static constexpr auto powers(const P& p, const TL& tl) {
    if constexpr (L >= M)
      return calx::slice<0, M>(p);
    else
      return powers<2 * L>(calx::concatenate(p, p * tl), tl * tl);
  }
  static constexpr auto squared_residual = [](auto t, auto sign_t, const auto& x) {
    const auto one = [] {
      calx::tensor<double, 1> o;
      o[0] = 1.0;
      return o;
    }();
    const auto r = sign_t - calx::sum(x * powers<1>(one, t));
    return r * r;
  };
  static constexpr auto objective = [](const auto& t, const auto& sign_t, const auto& x) {
    return calx::sum(calx::vmap(squared_residual, calx::in_axes<0, 0, calx::none>)(t, sign_t, x)) / 2.0;
  };
};

constexpr std::array<std::size_t, 1> llsq_sizes{128};

template <std::size_t M>
struct llsq_state {
  calx::tensor<double, M> x, gradient;
  std::size_t n = 0;
  std::vector<double> t, sign_t;
  double value = 0;
  /// The points, as the eval's loop computes them each time.
  void points() {
    t.resize(n);
    sign_t.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      t[i] = -1 + static_cast<double>(i) * 2 / (static_cast<double>(n) - 1);
      sign_t[i] = (0 < t[i]) - (t[i] < 0);
    }
  }
};

template <bool Gradient>
std::unique_ptr<evaluation> prepare(const json& input) {
  return dispatch_size<llsq_sizes>(input.at("x").size(), "llsq: m", [&]<std::size_t I>() {
    constexpr std::size_t M = llsq_sizes[I];
    using S = llsq_state<M>;
    S s;
    read_numbers(input.at("x"), s.x);
    s.n = input.at("n").get<std::size_t>();
    if (s.n < 2) throw std::invalid_argument("llsq: n must be at least 2; the input has " + std::to_string(s.n));
    if constexpr (Gradient)
      return make_evaluation(
          std::move(s),
          [](S& s) {
            s.points();
            s.gradient = calx::grad(llsq<M>::objective, calx::argnums<2>)(s.t, s.sign_t, s.x);
          },
          [](const S& s) { return numbers_json(s.gradient); });
    else
      return make_evaluation(
          std::move(s),
          [](S& s) {
            s.points();
            s.value = calx::trace(llsq<M>::objective, s.t, s.sign_t, s.x)(s.t, s.sign_t, s.x);
          },
          [](const S& s) { return json(s.value); });
  });
}

}  // namespace

void add_llsq(registry& r) {
  r["llsq"]["primal"] = prepare<false>;
  r["llsq"]["gradient"] = prepare<true>;
}

}  // namespace calx_gradbench
