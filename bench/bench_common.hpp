/// @file bench/bench_common.hpp
/// @brief What the runtime benchmarks share: input generation, a `min` statistic, and a
/// console reporter that prints `ratio=` lines comparing pairs of benchmarks.
#ifndef CALX_BENCH_COMMON_HPP
#define CALX_BENCH_COMMON_HPP

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace calx_bench {

/// Points per benchmark iteration.
inline constexpr std::size_t points = std::size_t{1} << 20;

/// Fills `v` with `n` values uniform in [lo, hi), from a fixed seed.
template <class V>
void fill_uniform(V& v, std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  v.resize(n);
  for (auto& e : v) e = static_cast<typename V::value_type>(dist(gen));
}

/// "f32" or "f64", for benchmark names.
template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

/// A benchmark that runs `Run` on problem `p` (its buffers, read and written in place).
template <class P, void (*Run)(P&)>
[[gnu::noinline]] void bm(benchmark::State& state, P* p) {
  for (auto _ : state) {
    Run(*p);
    benchmark::ClobberMemory();
  }
}

/// The smallest of the repetitions: the least disturbed by other work on a shared machine.
inline double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

/// A comparison printed after the table: `ratio=` numerator / denominator (real time), and
/// `cpu_ratio=` (CPU time of the benchmark's thread) when both sides run on one thread.
struct ratio_spec {
  std::string label, numerator, denominator;
  bool cpu = true;
};

inline std::vector<ratio_spec>& ratios() {
  static std::vector<ratio_spec> r;
  return r;
}

/// Registers a comparison of two benchmarks (by registered name) to print as `ratio=`.
inline void compare(std::string label, std::string numerator, std::string denominator, bool cpu = true) {
  ratios().push_back({std::move(label), std::move(numerator), std::move(denominator), cpu});
}

/// The console reporter, plus one `ratio=` line per registered comparison at the end: from
/// the `min` and `median` aggregates with --benchmark_repetitions, else from the single run.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "min" && r.aggregate_name != "median") continue;
      const std::string stat = r.run_type == Run::RT_Aggregate ? r.aggregate_name : "run";
      // Times in nanoseconds, whatever the benchmark's unit.
      const double to_ns = 1e9 / benchmark::GetTimeUnitMultiplier(r.time_unit);
      times_[stat][r.run_name.function_name] = {r.GetAdjustedRealTime() * to_ns, r.GetAdjustedCPUTime() * to_ns};
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    GetOutputStream() << "\n";  // ends the table's last line (and its colour)
    GetOutputStream().flush();
    for (const char* stat : {"min", "median", "run"}) {
      auto it = times_.find(stat);
      if (it == times_.end()) continue;
      for (const ratio_spec& c : ratios()) {
        auto n = it->second.find(c.numerator), d = it->second.find(c.denominator);
        if (n == it->second.end() || d == it->second.end()) continue;
        char cpu[32] = "";
        if (c.cpu) std::snprintf(cpu, sizeof cpu, "cpu_ratio=%.3f", n->second.second / d->second.second);
        std::printf("ratio=%.3f %-15s %-40s (%s)  %s / %s\n", n->second.first / d->second.first, cpu, c.label.c_str(),
                    stat, c.numerator.c_str(), c.denominator.c_str());
      }
    }
    std::fflush(stdout);
  }

 private:
  // statistic -> benchmark -> (real, cpu) nanoseconds per iteration
  std::map<std::string, std::map<std::string, std::pair<double, double>>> times_;
};

/// Largest relative difference |a - b| / max(|b|, floor) over two arrays.
template <class A, class B>
double max_rel_diff(const A& a, const B& b, double floor = 1e-3) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = static_cast<double>(a[i]), y = static_cast<double>(b[i]);
    m = std::max(m, std::abs(x - y) / std::max(std::abs(y), floor));
  }
  return m;
}

/// Runs the registered benchmarks with the ratio reporter; returns main's exit status.
/// Writes `fill`'s numbers (it fills a std::vector<T>) as a raw array to `path`: the dumps
/// (CALX_BENCH_DUMP) that bench/peers/ reads to run JAX on the same numbers.
template <class T, class Fill>
void write_numbers(const std::string& path, const Fill& fill) {
  std::vector<T> v;
  fill(v);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(v.data(), sizeof(T), v.size(), f) != v.size()) {
    std::printf("cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fclose(f);
}

inline int run_benchmarks(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace calx_bench

#endif  // CALX_BENCH_COMMON_HPP
