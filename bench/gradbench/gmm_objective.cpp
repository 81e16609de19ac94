/// @file bench/gradbench/gmm_objective.cpp
/// @brief gmm's objective (gmm.hpp), and the module's entry.
#include "gmm.hpp"

namespace calx_gradbench {
namespace gmm_eval {

std::unique_ptr<evaluation> prepare_objective(const json& input) {
  return dispatch(input, [&]<std::size_t D, std::size_t K>() {
    struct S : state<D, K> {
      double value = 0;
    };
    S s{read<D, K>(input)};
    return make_evaluation(
        std::move(s),
        [](S& s) {
          s.value = calx::trace(gmm<D, K>::objective, s.x, s.alpha, s.mu, s.q, s.l, s.gamma, s.m, s.n, s.constant)(
              s.x, s.alpha, s.mu, s.q, s.l, s.gamma, s.m, s.n, s.constant);
        },
        [](const S& s) { return json(s.value); });
  });
}

}  // namespace gmm_eval

void add_gmm(registry& r) {
  r["gmm"]["objective"] = gmm_eval::prepare_objective;
  r["gmm"]["jacobian"] = gmm_eval::prepare_jacobian;
}

}  // namespace calx_gradbench
