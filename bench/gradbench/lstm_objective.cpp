/// @file bench/gradbench/lstm_objective.cpp
/// @brief lstm's loss (lstm.hpp), and the module's entry.
#include "lstm.hpp"

namespace calx_gradbench {
namespace lstm_eval {

std::unique_ptr<evaluation> prepare_objective(const json& input) {
  return dispatch(input, [&]<std::size_t L, std::size_t B, std::size_t C>() {
    struct S : state<L, B, C> {
      double loss = 0;
    };
    S s{read<L, B, C>(input)};
    return make_evaluation(
        std::move(s),
        [](S& s) {
          s.loss = calx::trace(lstm<L, B, C>::objective, s.main, s.extra, s.hidden_and_cell, *s.text)(
              s.main, s.extra, s.hidden_and_cell, *s.text);
        },
        [](const S& s) { return json(s.loss); });
  });
}

}  // namespace lstm_eval

void add_lstm(registry& r) {
  r["lstm"]["objective"] = lstm_eval::prepare_objective;
  r["lstm"]["jacobian"] = lstm_eval::prepare_jacobian;
}

}  // namespace calx_gradbench
