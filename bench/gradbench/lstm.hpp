/// @file bench/gradbench/lstm.hpp
/// @brief GradBench's lstm (evals/lstm, from ADBench): the loss of an l-layer LSTM that
/// predicts each character of a text from the one before (b bits a character), and its
/// gradient in the layers' weights and biases and the input/output weights.
///
/// l, b and the number of characters c are compile-time sizes: the text is a
/// `calx::tensor<double, c, b>`, the per-step inputs of one `calx::scan`.
#ifndef CALX_BENCH_GRADBENCH_LSTM_HPP
#define CALX_BENCH_GRADBENCH_LSTM_HPP

#include "protocol.hpp"

#include <calx/calx.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

namespace calx_gradbench::lstm_eval {

template <std::size_t L, std::size_t B, std::size_t C>
struct lstm {
  /// One layer from its input and its row of the parameters (the four gates' weights, then
  /// their biases) and of the state (hidden, then cell): the layer's output (its new hidden
  /// state) and its new state row. ADBench's cell: the forget and output gates read the
  /// input, the input gate and the change the layer's hidden state.
  static constexpr auto layer = [](const auto& input, const auto& rows) {
    const auto& [params, state] = rows;
    const auto hidden = calx::slice<0, B>(state), cell = calx::slice<B, 2 * B>(state);
    // The gates' pre-activations as one row of 4B: forget, ingate, outgate, change.
    const auto pre = calx::concatenate(input, hidden, input, hidden) * calx::slice<0, 4 * B>(params) +
                     calx::slice<4 * B, 8 * B>(params);
    const auto gates = calx::sigmoid(calx::slice<0, 3 * B>(pre));
    const auto change = calx::tanh(calx::slice<3 * B, 4 * B>(pre));
    const auto new_cell = cell * calx::slice<0, B>(gates) + calx::slice<B, 2 * B>(gates) * change;
    const auto new_hidden = calx::slice<2 * B, 3 * B>(gates) * calx::tanh(new_cell);
    return std::pair{new_hidden, calx::concatenate(new_hidden, new_cell)};
  };
  /// The loss: minus the mean over characters t < c - 1 and bits of the next character
  /// times the log-probability predicted for it (ADBench's log-sum-exp adds 2 to the sum).
  /// One `scan` over the characters and the ones after them (its per-step inputs, read in
  /// place); the parameters ride in the carry, which reverse mode does not store per step
  /// since the body passes them through.
  static constexpr auto objective = [](const auto& main, const auto& extra, const auto& state, const auto& text) {
    const auto [end, log_likelihoods] = calx::scan(
        [](const auto& carry, const auto& chars) {
          const auto& [main, extra, state] = carry;
          const auto& [current, next] = chars;
          // The layers, one after the other: a scan over their rows of parameters and state.
          const auto [out, new_state] = calx::scan(layer, current * calx::take<0>(extra),
                                                   std::pair{calx::reshape<L, 8 * B>(main), calx::reshape<L, 2 * B>(state)});
          const auto predicted = out * calx::take<1>(extra) + calx::take<2>(extra);
          const auto normalized = predicted - calx::log(calx::sum(calx::exp(predicted)) + 2.0);
          return std::pair{std::tuple{main, extra, calx::reshape<2 * L, B>(new_state)}, calx::sum(next * normalized)};
        },
        std::tuple{main, extra, state}, std::pair{calx::slice<0, C - 1>(text), calx::slice<1, C>(text)});
    return -calx::sum(log_likelihoods) / ((C - 1) * static_cast<double>(B));
  };
};

/// The sizes compiled: layers l, bits a character b (14 for the eval's text) and characters
/// c, one instantiation per triple (lstm_objective.cpp, lstm_jacobian.cpp).
inline constexpr std::array<std::size_t, 1> layer_counts{2};
inline constexpr std::array<std::size_t, 1> char_bits{14};
inline constexpr std::array<std::size_t, 1> char_counts{1024};

template <std::size_t L, std::size_t B, std::size_t C>
struct state {
  calx::tensor<double, 2 * L, 4 * B> main;
  calx::tensor<double, 3, B> extra;
  calx::tensor<double, 2 * L, B> hidden_and_cell;
  heap_tensor<calx::tensor<double, C, B>> text;
};

template <std::size_t L, std::size_t B, std::size_t C>
state<L, B, C> read(const json& input) {
  state<L, B, C> s;
  read_rows(input.at("main_params"), 2 * L, 4 * B, s.main);
  read_rows(input.at("extra_params"), 3, B, s.extra);
  read_rows(input.at("state"), 2 * L, B, s.hidden_and_cell);
  read_rows(input.at("sequence"), C, B, *s.text);
  return s;
}

/// Calls `make.template operator()<L, B, C>()` for the input's sizes.
template <class Make>
std::unique_ptr<evaluation> dispatch(const json& input, Make make) {
  const json& main = input.at("main_params");
  return dispatch_size<layer_counts>(main.size() / 2, "lstm: l", [&]<std::size_t I>() {
    return dispatch_size<char_bits>(main.at(0).size() / 4, "lstm: b", [&]<std::size_t J>() {
      return dispatch_size<char_counts>(input.at("sequence").size(), "lstm: c", [&]<std::size_t K>() {
        return make.template operator()<layer_counts[I], char_bits[J], char_counts[K]>();
      });
    });
  });
}

std::unique_ptr<evaluation> prepare_objective(const json& input);
std::unique_ptr<evaluation> prepare_jacobian(const json& input);

}  // namespace calx_gradbench::lstm_eval

#endif
