/// @file bench/gradbench/lstm_jacobian.cpp
/// @brief lstm's gradient (lstm.hpp) in the layers' parameters and the extra ones, by
/// `calx::grad` through the scan.
#include "lstm.hpp"

#include <vector>

namespace calx_gradbench::lstm_eval {

std::unique_ptr<evaluation> prepare_jacobian(const json& input) {
  return dispatch(input, [&]<std::size_t L, std::size_t B, std::size_t C>() {
    struct S : state<L, B, C> {
      calx::tensor<double, 2 * L, 4 * B> d_main;
      calx::tensor<double, 3, B> d_extra;
    };
    S s{read<L, B, C>(input)};
    return make_evaluation(
        std::move(s),
        [](S& s) {
          std::tie(s.d_main, s.d_extra) = calx::grad(lstm<L, B, C>::objective, calx::argnums<0, 1>)(
              s.main, s.extra, s.hidden_and_cell, *s.text);
        },
        [](const S& s) {
          // GradBench's order: main_params' gradient, then extra_params', each row major.
          std::vector<double> g(s.d_main.data(), s.d_main.data() + s.d_main.size);
          g.insert(g.end(), s.d_extra.data(), s.d_extra.data() + s.d_extra.size);
          return json(g);
        });
  });
}

}  // namespace calx_gradbench::lstm_eval
