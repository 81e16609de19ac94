/// @file bench/gradbench/gmm.hpp
/// @brief GradBench's gmm (evals/gmm, from ADBench): the log-likelihood of n points under a
/// mixture of k Gaussians in d dimensions, each with a mean and an inverse covariance factor
/// Q = diag(exp(q)) + L (L strictly lower triangular, packed by columns), plus a Wishart
/// prior on the Qs; and its gradient in alpha, mu, q and L.
///
/// d and k are compile-time sizes; the points are a runtime batch of any n.
#ifndef CALX_BENCH_GRADBENCH_GMM_HPP
#define CALX_BENCH_GRADBENCH_GMM_HPP

#include "protocol.hpp"

#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

namespace calx_gradbench::gmm_eval {

template <std::size_t D, std::size_t K>
struct gmm {
  static constexpr std::size_t L = D * (D - 1) / 2;  // L's packed entries per component
  /// Entry (j, i) of L -> its packed index (ADBench's order: column i, rows j > i), or L,
  /// a zero appended after them, on and above the diagonal.
  static constexpr calx::tensor<int, D * D> lower = [] {
    calx::tensor<int, D * D> t;
    for (std::size_t j = 0; j < D * D; ++j) t[j] = static_cast<int>(L);
    int packed = 0;
    for (std::size_t i = 0; i < D; ++i)
      for (std::size_t j = i + 1; j < D; ++j) t[j * D + i] = packed++;
    return t;
  }();
  /// log sum exp of a point's k terms, alpha + sum(q) - |Q (x - mu)|^2 / 2 for each
  /// component (Q's diagonal and L given for all of them).
  static constexpr auto point_term = [](const auto& x, const auto& mu, const auto& q_diag, const auto& l_full,
                                        const auto& weight) {
    const auto centered = x - mu;  // x broadcast over the components
    const auto qx = q_diag * centered + calx::sum(l_full * calx::reshape<K, 1, D>(centered), calx::axis<2>);
    const auto terms = weight - 0.5 * calx::sum(qx * qx, calx::axis<1>);
    const auto top = calx::max(terms);
    return calx::log(calx::sum(calx::exp(terms - top))) + top;
  };
  /// The objective; `n` is the number of points and `constant` the terms that depend on
  /// nothing differentiated (the Gaussians' normalisation and the prior's k C).
  static constexpr auto objective = [](const auto& x, const auto& alpha, const auto& mu, const auto& q, const auto& l,
                                       auto gamma, auto m, auto n, auto constant) {
    const auto q_diag = calx::exp(q);
    const auto sum_q = calx::sum(q, calx::axis<1>);
    const auto padded = calx::concatenate(l, 0.0 * calx::slice<0, 1>(l, calx::axis<1>), calx::axis<1>);
    const auto l_full = calx::reshape<K, D, D>(calx::take(padded, lower, calx::axis<1>));
    const auto points = calx::sum(calx::vmap(point_term, calx::in_axes<0, calx::none, calx::none, calx::none, calx::none>)(
        x, mu, q_diag, l_full, alpha + sum_q));
    const auto top = calx::max(alpha);
    const auto lse_alpha = calx::log(calx::sum(calx::exp(alpha - top))) + top;
    const auto frobenius = calx::sum(q_diag * q_diag) + calx::sum(l * l);
    const auto prior = 0.5 * gamma * gamma * frobenius - m * calx::sum(sum_q);
    return constant + points - n * lse_alpha - prior;
  };
};

/// The sizes compiled (d, k), one instantiation each: the golden workload's.
inline constexpr std::array<std::size_t, 1> dims{2};
inline constexpr std::array<std::size_t, 1> components{5};

template <std::size_t D, std::size_t K>
struct state {
  std::vector<calx::tensor<double, D>> x;
  calx::tensor<double, K> alpha;
  calx::tensor<double, K, D> mu, q;
  calx::tensor<double, K, gmm<D, K>::L> l;
  double gamma = 1, m = 0, n = 0, constant = 0;
};

template <std::size_t D, std::size_t K>
state<D, K> read(const json& input) {
  state<D, K> s;
  constexpr std::size_t L = gmm<D, K>::L;
  const json& x = input.at("x");
  s.x.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < D; ++j) s.x[i][j] = x[i].at(j).get<double>();
  read_numbers(input.at("alpha"), s.alpha);
  read_rows(input.at("mu"), K, D, s.mu);
  read_rows(input.at("q"), K, D, s.q);
  read_rows(input.at("l"), K, L, s.l);
  s.gamma = input.at("gamma").get<double>();
  s.m = input.at("m").get<double>();
  s.n = static_cast<double>(x.size());
  // -n d log(2 pi) / 2, and k times the Wishart prior's C (ADBench's log_wishart_prior).
  const double d = D, wishart_n = d + s.m + 1;
  double log_gamma = 0.25 * d * (d - 1) * std::log(std::numbers::pi);
  for (std::size_t j = 1; j <= D; ++j) log_gamma += std::lgamma(0.5 * wishart_n + 0.5 * (1.0 - static_cast<double>(j)));
  const double c = wishart_n * d * (std::log(s.gamma) - 0.5 * std::log(2.0)) - log_gamma;
  s.constant = -s.n * d * 0.5 * std::log(2 * std::numbers::pi) + static_cast<double>(K) * c;
  return s;
}

/// Calls `make.template operator()<D, K>()` for the input's sizes.
template <class Make>
std::unique_ptr<evaluation> dispatch(const json& input, Make make) {
  return dispatch_size<dims>(input.at("d").get<std::size_t>(), "gmm: d", [&]<std::size_t I>() {
    return dispatch_size<components>(input.at("k").get<std::size_t>(), "gmm: k", [&]<std::size_t J>() {
      return make.template operator()<dims[I], components[J]>();
    });
  });
}

std::unique_ptr<evaluation> prepare_objective(const json& input);
std::unique_ptr<evaluation> prepare_jacobian(const json& input);

}  // namespace calx_gradbench::gmm_eval

#endif
