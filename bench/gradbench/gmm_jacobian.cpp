/// @file bench/gradbench/gmm_jacobian.cpp
/// @brief gmm's gradient (gmm.hpp) in alpha, mu, q and L, by `calx::grad`.
#include "gmm.hpp"

#include <tuple>

namespace calx_gradbench::gmm_eval {

std::unique_ptr<evaluation> prepare_jacobian(const json& input) {
  return dispatch(input, [&]<std::size_t D, std::size_t K>() {
    constexpr std::size_t L = gmm<D, K>::L;
    struct S : state<D, K> {
      calx::tensor<double, K> d_alpha;
      calx::tensor<double, K, D> d_mu, d_q;
      calx::tensor<double, K, L> d_l;
    };
    S s{read<D, K>(input)};
    return make_evaluation(
        std::move(s),
        [](S& s) {
          std::tie(s.d_alpha, s.d_mu, s.d_q, s.d_l) = calx::grad(gmm<D, K>::objective, calx::argnums<1, 2, 3, 4>)(
              s.x, s.alpha, s.mu, s.q, s.l, s.gamma, s.m, s.n, s.constant);
        },
        [](const S& s) {
          return json{{"alpha", numbers_json(s.d_alpha)},
                      {"mu", rows_json<K, D>(s.d_mu)},
                      {"q", rows_json<K, D>(s.d_q)},
                      {"l", rows_json<K, L>(s.d_l)}};
        });
  });
}

}  // namespace calx_gradbench::gmm_eval
