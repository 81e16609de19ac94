/// @file bench/gradbench/main.cpp
/// @brief The calx GradBench tool: the protocol's message loop over the evals of this folder.
///
///   calx_gradbench            speaks the protocol on stdin/stdout (an eval drives it)
///
/// calx keeps a tensor's elements in the object, and its programs keep their values on the
/// stack, so a workload of a million numbers needs tens of MB of stack: the loop runs on a
/// thread with 1 GiB of stack (reserved address space; only what is touched is memory).
#include "protocol.hpp"

#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace calx_gradbench {

namespace {

json evaluate(const registry& evals, const json& message) {
  const std::string module = message.at("module");
  const std::string function = message.at("function");
  const auto m = evals.find(module);
  if (m == evals.end()) throw std::invalid_argument("calx has no module " + module);
  const auto f = m->second.find(function);
  if (f == m->second.end()) throw std::invalid_argument("calx's " + module + " has no function " + function);
  const json& input = message.at("input");
  const long min_runs = input.contains("min_runs") ? input["min_runs"].get<long>() : 1;
  const double min_seconds = input.contains("min_seconds") ? input["min_seconds"].get<double>() : 0.0;

  using clock = std::chrono::steady_clock;
  const auto prepare_start = clock::now();
  const std::unique_ptr<evaluation> e = f->second(input);
  json timings = json::array();
  timings.push_back({{"name", "prepare"},
                     {"nanoseconds", std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - prepare_start).count()}});
  double elapsed = 0;
  for (long i = 0; i < min_runs || elapsed < min_seconds; ++i) {
    const auto start = clock::now();
    e->run();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - start).count();
    timings.push_back({{"name", "evaluate"}, {"nanoseconds", ns}});
    elapsed += static_cast<double>(ns) * 1e-9;
  }
  return {{"success", true}, {"output", e->output()}, {"timings", timings}};
}

}  // namespace

json respond(const registry& evals, const json& message) {
  json response = {{"id", message.at("id")}};
  const std::string kind = message.at("kind");
  if (kind == "start") {
    response["tool"] = "calx";
  } else if (kind == "define") {
    const bool here = evals.count(message.at("module").get<std::string>()) != 0;
    response["success"] = here;
    if (!here) response["error"] = "calx has no module " + message.at("module").get<std::string>();
  } else if (kind == "evaluate") {
    try {
      response.update(evaluate(evals, message));
    } catch (const std::exception& ex) {
      response["success"] = false;
      response["error"] = ex.what();
    }
  }
  return response;  // "analysis" and anything newer: acknowledged by id
}

void serve(const registry& evals, std::istream& in, std::ostream& out) {
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    out << respond(evals, json::parse(line)).dump() << std::endl;  // flushed: the eval waits for it
  }
}

}  // namespace calx_gradbench

int main() {
  static calx_gradbench::registry evals;
  calx_gradbench::add_llsq(evals);
  calx_gradbench::add_lse(evals);
  calx_gradbench::add_kmeans(evals);
  calx_gradbench::add_ode(evals);
  calx_gradbench::add_ba(evals);
  calx_gradbench::add_lstm(evals);
  calx_gradbench::add_gmm(evals);
  calx_gradbench::add_det(evals);
  calx_gradbench::add_ht(evals);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{1} << 30);
  pthread_t worker;
  const auto body = [](void*) -> void* {
    calx_gradbench::serve(evals, std::cin, std::cout);
    return nullptr;
  };
  if (const int rc = pthread_create(&worker, &attr, body, nullptr); rc != 0) {
    std::fprintf(stderr, "calx_gradbench: cannot start the worker thread: %s\n", std::strerror(rc));
    return 1;
  }
  pthread_join(worker, nullptr);
  return 0;
}
