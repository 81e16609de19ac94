/// @file bench/gradbench/lse.cpp
/// @brief GradBench's lse: log-sum-exp of n numbers and its gradient (evals/lse).
///
/// The objective is written once, as the eval defines it, and its gradient is calx::grad's.
/// n is a compile-time size: one instantiation per size the eval sends by default.
#include "protocol.hpp"

#include <calx/calx.hpp>

#include <array>
#include <memory>

namespace calx_gradbench {
namespace {

/// log(sum(exp(x - A))) + A with A = max(x): the shift keeps exp from overflowing; its
/// derivative cancels (d/dA is 0), so the gradient is softmax(x), as with JAX's.
constexpr auto lse = [](const auto& x) {
  const auto a = calx::max(x);
  return calx::log(calx::sum(calx::exp(x - a))) + a;
};

constexpr std::array<std::size_t, 10> lse_sizes{2500, 5000, 10000, 20000, 40000, 80000, 160000, 320000, 640000, 1280000};

template <std::size_t N>
struct lse_state {
  heap_tensor<calx::tensor<double, N>> x, gradient;
  double value = 0;
};

template <std::size_t N>
lse_state<N> read(const json& input) {
  lse_state<N> s;
  read_numbers(input.at("x"), *s.x);
  return s;
}

template <bool Gradient>
std::unique_ptr<evaluation> prepare(const json& input) {
  return dispatch_size<lse_sizes>(input.at("x").size(), "lse: n", [&]<std::size_t I>() {
    constexpr std::size_t N = lse_sizes[I];
    if constexpr (Gradient)
      return make_evaluation(
          read<N>(input), [](lse_state<N>& s) { *s.gradient = calx::grad(lse)(*s.x); },
          [](const lse_state<N>& s) { return numbers_json(*s.gradient); });
    else
      return make_evaluation(
          read<N>(input), [](lse_state<N>& s) { s.value = calx::trace(lse, *s.x)(*s.x); },
          [](const lse_state<N>& s) { return json(s.value); });
  });
}

}  // namespace

void add_lse(registry& r) {
  r["lse"]["primal"] = prepare<false>;
  r["lse"]["gradient"] = prepare<true>;
}

}  // namespace calx_gradbench
