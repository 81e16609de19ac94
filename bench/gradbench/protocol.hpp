/// @file bench/gradbench/protocol.hpp
/// @brief calx as a GradBench tool: the evals' functions, and the tool protocol that runs
/// them (github.com/gradbench/gradbench, crates/gradbench/src/protocol.rs).
///
/// The eval writes one JSON message a line on the tool's stdin and reads one response a
/// line from its stdout: `start` (the tool names itself), `define` (is this module here?),
/// `evaluate` (run `function` of `module` on `input`, at least `min_runs` times and for at
/// least `min_seconds`, and return the output and each run's time), `analysis` (the eval's
/// verdict; acknowledged). As GradBench's C++ tools do (cpp/gradbench/main.hpp), the input is
/// converted before the clock starts (`prepare`), each run is timed alone, and the output of
/// the last run is converted to JSON after the clock stops.
#ifndef CALX_BENCH_GRADBENCH_PROTOCOL_HPP
#define CALX_BENCH_GRADBENCH_PROTOCOL_HPP

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace calx_gradbench {

using json = nlohmann::json;

/// One function of an eval on one input: `run` is what the clock times, `output` the
/// result of the last run as the eval expects it.
struct evaluation {
  virtual ~evaluation() = default;
  virtual void run() = 0;
  virtual json output() const = 0;
};

/// Makes the evaluation of one function from the eval's input (throws
/// std::invalid_argument, with the values, for an input the tool cannot take).
using prepare_fn = std::function<std::unique_ptr<evaluation>(const json& input)>;

/// module -> function -> how to prepare it. Each eval's TU adds its own module.
using registry = std::map<std::string, std::map<std::string, prepare_fn>>;

void add_llsq(registry&);
void add_lse(registry&);
void add_kmeans(registry&);
void add_ode(registry&);
void add_ba(registry&);
void add_lstm(registry&);
void add_gmm(registry&);
void add_det(registry&);
void add_ht(registry&);

/// An evaluation that keeps its state `S` and runs `Run` on it; `Out` converts the result.
template <class S, class Run, class Out>
struct evaluation_of final : evaluation {
  S state;
  Run run_fn;
  Out out_fn;
  evaluation_of(S s, Run r, Out o) : state(std::move(s)), run_fn(r), out_fn(o) {}
  void run() override { run_fn(state); }
  json output() const override { return out_fn(state); }
};
template <class S, class Run, class Out>
std::unique_ptr<evaluation> make_evaluation(S state, Run run, Out out) {
  return std::make_unique<evaluation_of<S, Run, Out>>(std::move(state), run, out);
}

/// A tensor of N numbers on the heap: a workload of a million numbers is 8 MB, too much
/// for a stack frame (the tool's thread has a large stack for calx's own values).
template <class Tensor>
struct heap_tensor {
  std::unique_ptr<Tensor> p = std::make_unique<Tensor>();
  Tensor& operator*() const { return *p; }
  Tensor* operator->() const { return p.get(); }
};

/// The JSON array `a` of numbers into `t`'s elements, in order.
template <class Tensor>
void read_numbers(const json& a, Tensor& t) {
  for (std::size_t i = 0; i < Tensor::size; ++i) t[i] = a.at(i).template get<double>();
}
/// `t`'s elements as a JSON array.
template <class Tensor>
json numbers_json(const Tensor& t) {
  return json(std::vector<double>(t.data(), t.data() + Tensor::size));
}

/// The JSON array `a` of R arrays of K numbers into `t`'s elements, row by row.
template <class Tensor>
void read_rows(const json& a, std::size_t rows, std::size_t cols, Tensor& t) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) t[i * cols + j] = a.at(i).at(j).template get<double>();
}
/// `t`'s elements as a JSON array of R arrays of K numbers.
template <std::size_t R, std::size_t K, class Tensor>
json rows_json(const Tensor& t) {
  json rows = json::array();
  for (std::size_t i = 0; i < R; ++i) rows.push_back(std::vector<double>(t.data() + i * K, t.data() + (i + 1) * K));
  return rows;
}

/// The message for an input of a size no instantiation was compiled for.
inline std::invalid_argument unsupported_size(const std::string& what, std::size_t got,
                                              const std::vector<std::size_t>& compiled) {
  std::string list;
  for (std::size_t c : compiled) list += (list.empty() ? "" : ", ") + std::to_string(c);
  return std::invalid_argument("calx's " + what + " is compiled for " + list + "; the input has " +
                               std::to_string(got) + " (add it to the list in bench/gradbench/)");
}

/// Calls `make.template operator()<I>()` for the entry `I` of `sizes` equal to `n`.
template <auto sizes, class Make>
auto dispatch_size(std::size_t n, const std::string& what, Make make) -> decltype(make.template operator()<0>()) {
  decltype(make.template operator()<0>()) out{};
  bool found = false;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((!found && sizes[I] == n ? (out = make.template operator()<I>(), found = true) : false), ...);
  }(std::make_index_sequence<sizes.size()>{});
  if (!found) throw unsupported_size(what, n, std::vector<std::size_t>(sizes.begin(), sizes.end()));
  return out;
}

/// Answers one message (the protocol's `Message`); a failure of an evaluation is a response
/// with `success: false` and the error, as the protocol asks.
json respond(const registry& evals, const json& message);

/// Reads messages from `in` until its end and writes the responses to `out`, one a line.
void serve(const registry& evals, std::istream& in, std::ostream& out);

}  // namespace calx_gradbench

#endif
