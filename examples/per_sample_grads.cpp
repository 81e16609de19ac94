// Per-sample gradients of a small MLP (16 -> 32 -> 1, tanh, squared error; 577 parameters)
// over 4096 samples: `vmap(grad(loss))` with the parameters broadcast, checked against a loop
// of `grad` over the samples. CTest runs it and compares its output with
// examples/per_sample_grads.out; it exits non-zero when the two disagree.
#include <calx/calx.hpp>

#include <boost/hana/at_key.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/keys.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

struct mlp {
  BOOST_HANA_DEFINE_STRUCT(mlp,
    (calx::tensor<float, 32, 16>, w1), (calx::tensor<float, 32>, b1),
    (calx::tensor<float, 1, 32>, w2), (calx::tensor<float, 1>, b2));
};

constexpr auto loss = [](const auto& p, const auto& x, const auto& y) {
  auto h = calx::tanh(calx::matvec(p.w1, x) + p.b1);
  auto d = (calx::matvec(p.w2, h) + p.b2)(0) - y;
  return d * d;
};

namespace {

// A fixed, reproducible pseudo-random number in [-1, 1) (no <random>: its distributions
// differ between standard libraries, and the output is golden-checked).
float noise(std::size_t k) {
  const std::size_t h = (k * 2654435761u + 12345u) % 1000003u;
  return static_cast<float>(h) / 500001.5f - 1.0f;
}

// Calls f(a_k, b_k) on the parameters of two structs, element by element.
template <class A, class B, class F>
void zip_params(A& a, B& b, F f) {
  boost::hana::for_each(boost::hana::keys(a), [&](auto key) {
    auto& ta = boost::hana::at_key(a, key);
    auto& tb = boost::hana::at_key(b, key);
    for (std::size_t k = 0; k < ta.size; ++k) f(ta.data()[k], tb.data()[k]);
  });
}

// The largest difference between two structs of tensors, relative to the larger magnitude.
float max_rel_diff(const mlp& a, const mlp& b) {
  float worst = 0;
  zip_params(a, b, [&](float x, float y) {
    worst = std::max(worst, std::fabs(x - y) / std::max(1.0f, std::max(std::fabs(x), std::fabs(y))));
  });
  return worst;
}

}  // namespace

int main() {
  constexpr std::size_t samples = 4096;
  mlp params;
  std::size_t k = 0;
  zip_params(params, params, [&](float& w, float&) { w = 0.4f * noise(k++); });

  std::vector<calx::tensor<float, 16>> xs(samples);
  std::vector<float> ys(samples);
  for (std::size_t i = 0; i < samples; ++i) {
    for (std::size_t e = 0; e < 16; ++e) xs[i][e] = noise(100000 + 16 * i + e);
    ys[i] = noise(900000 + i);
  }

  // One call: the gradient of every sample's loss with respect to the parameters.
  auto g = calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0, 0>)(params, xs, ys);

  // The same, one sample at a time.
  float worst = 0;
  for (std::size_t i = 0; i < samples; ++i) {
    const mlp gi = calx::grad(loss)(params, xs[i], ys[i]);
    worst = std::max(worst, max_rel_diff(g[i], gi));
  }
  // Both run the same float program, vectorized or not; the bound allows for a different
  // order of summation in the contractions.
  const bool same = worst <= 1e-5f;

  const mlp g0 = g[0];
  std::size_t count = 0;
  zip_params(g0, g0, [&](float, float) { ++count; });
  std::printf("per-sample gradients: %zu of %zu parameters each\n", g.size(), count);
  std::printf("vmap(grad) against a loop of grad: %s\n", same ? "equal to 1e-5" : "DIFFERENT");
  std::printf("sample 0: dL/db2 = %.4f, dL/dw1(0, 0) = %.4f\n", double(g0.b2(0)), double(g0.w1(0, 0)));
  return same ? 0 : 1;
}
