// bench_ceres: calx::ceres_cost_function against ceres::AutoDiffCostFunction (Jets) on the
// same functors, bundle adjustment at GradBench's ba1 size (49 cameras, 7,776 points, 31,843
// observations; tests/_include/ceres_problems.hpp): Evaluate of every residual block, with
// Jacobians and without, as Ceres calls it, and the whole solve (10 Levenberg-Marquardt
// iterations, SPARSE_SCHUR with the points eliminated, one thread). The same data, functors and calls for both; both
// checked to agree before timing. docs/performance.md, "Ceres".
#include <calx/ceres.hpp>

#include "bench_common.hpp"

#include <_include/ceres_problems.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

using namespace ceres_problems;
using namespace calx_bench;

template <class F, int R, int... N>
using autodiff = ceres::AutoDiffCostFunction<F, R, N...>;

constexpr std::size_t cameras = 49, points_count = 7776, observations = 31843;

ba_problem& problem() {
  static ba_problem b = make_ba(cameras, points_count, observations);
  return b;
}

/// Every residual block's Evaluate: the reprojection error (2 x {11, 3, 1, 2}; the feature
/// is constant, so its Jacobian is not asked for, as Ceres does) and the weight error.
struct evaluator {
  std::unique_ptr<ceres::CostFunction> reprojection, weight;
  std::vector<double> residuals = std::vector<double>(3 * observations);
  std::vector<double> jacobians = std::vector<double>(observations * (2 * 15 + 1));

  void run(bool with_jacobians) {
    ba_problem& b = problem();
    for (std::size_t i = 0; i < observations; ++i) {
      const double* params[] = {b.cams[b.obs[i][0]].data(), b.X[b.obs[i][1]].data(), &b.w[i], b.feats[i].data()};
      double* j = jacobians.data() + i * 31;
      double* blocks[] = {j, j + 22, j + 28, nullptr};
      reprojection->Evaluate(params, residuals.data() + 3 * i, with_jacobians ? blocks : nullptr);
      const double* w[] = {&b.w[i]};
      double* wj[] = {j + 30};
      weight->Evaluate(w, residuals.data() + 3 * i + 2, with_jacobians ? wj : nullptr);
    }
  }
};

template <template <class, int, int...> class Cost>
evaluator& evaluator_of() {
  static evaluator e{std::unique_ptr<ceres::CostFunction>(ba_costs<Cost>::reprojection()),
                     std::unique_ptr<ceres::CostFunction>(ba_costs<Cost>::weight())};
  return e;
}

template <template <class, int, int...> class Cost>
void bm_evaluate(benchmark::State& state, bool with_jacobians) {
  evaluator& e = evaluator_of<Cost>();
  for (auto _ : state) {
    e.run(with_jacobians);
    benchmark::ClobberMemory();
  }
  state.counters["per_block_ns"] =
      benchmark::Counter(static_cast<double>(observations), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <template <class, int, int...> class Cost>
void bm_solve(benchmark::State& state) {
  ceres::Solver::Summary summary;
  for (auto _ : state) {
    ba_problem b = problem();
    ceres::Problem p;
    add_ba<Cost>(p, b);
    ceres::Solve(ba_options(b, ceres::SPARSE_SCHUR, 10), &p, &summary);
    benchmark::DoNotOptimize(b.cams.data());
  }
  if (!summary.IsSolutionUsable()) state.SkipWithError(summary.message.c_str());
  state.counters["final_cost"] = summary.final_cost;
  state.counters["iterations"] = static_cast<double>(summary.iterations.size());
  state.counters["jacobian_eval_s"] = summary.jacobian_evaluation_time_in_seconds;
  state.counters["linear_solve_s"] = summary.linear_solver_time_in_seconds;
}

/// Both evaluators on every block, compared: the timings are of the same numbers. Jacobian
/// entries at their row's scale (tests/ceres/ceres.cpp says why).
void check_agreement() {
  evaluator& a = evaluator_of<calx::ceres_cost_function>();
  evaluator& b = evaluator_of<autodiff>();
  a.run(true);
  b.run(true);
  const double r = max_rel_diff(a.residuals, b.residuals, 1.0);
  double j = 0;
  for (std::size_t i = 0; i < observations; ++i) {
    const double* ja = a.jacobians.data() + 31 * i;
    const double* jb = b.jacobians.data() + 31 * i;
    // Row k of the reprojection error: 11 camera, 3 point and 1 weight entries.
    for (std::size_t k = 0; k < 2; ++k) {
      const std::size_t at[] = {0, 22, 28};
      const std::size_t n[] = {11, 3, 1};
      double scale = 1, diff = 0;
      for (std::size_t blk = 0; blk < 3; ++blk)
        for (std::size_t c = 0; c < n[blk]; ++c) {
          const std::size_t e = at[blk] + k * n[blk] + c;
          scale = std::max(scale, std::abs(jb[e]));
          diff = std::max(diff, std::abs(ja[e] - jb[e]));
        }
      j = std::max(j, diff / scale);
    }
    j = std::max(j, std::abs(ja[30] - jb[30]) / std::max(1.0, std::abs(jb[30])));
  }
  std::printf("calx vs Jets over %zu observations: residuals %.2e (|a - b| / max(1, |b|)), Jacobians %.2e (|a - b| / "
              "max(1, largest |entry| of the row))\n",
              observations, r, j);
  if (r > 1e-12 || j > 1e-12) {
    std::printf("calx and Jets disagree\n");
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  check_agreement();
  auto with_min = [](benchmark::internal::Benchmark* b, benchmark::TimeUnit unit) { b->Unit(unit)->ComputeStatistics("min", min_of); };
  with_min(benchmark::RegisterBenchmark("ceres/evaluate_jacobians/calx", bm_evaluate<calx::ceres_cost_function>, true), benchmark::kMicrosecond);
  with_min(benchmark::RegisterBenchmark("ceres/evaluate_jacobians/autodiff", bm_evaluate<autodiff>, true), benchmark::kMicrosecond);
  with_min(benchmark::RegisterBenchmark("ceres/evaluate_residuals/calx", bm_evaluate<calx::ceres_cost_function>, false), benchmark::kMicrosecond);
  with_min(benchmark::RegisterBenchmark("ceres/evaluate_residuals/autodiff", bm_evaluate<autodiff>, false), benchmark::kMicrosecond);
  with_min(benchmark::RegisterBenchmark("ceres/solve/calx", bm_solve<calx::ceres_cost_function>), benchmark::kMillisecond);
  with_min(benchmark::RegisterBenchmark("ceres/solve/autodiff", bm_solve<autodiff>), benchmark::kMillisecond);
  compare("Evaluate with Jacobians, calx / Jets", "ceres/evaluate_jacobians/calx", "ceres/evaluate_jacobians/autodiff");
  compare("Evaluate residuals, calx / Jets", "ceres/evaluate_residuals/calx", "ceres/evaluate_residuals/autodiff");
  compare("solve (10 iterations), calx / Jets", "ceres/solve/calx", "ceres/solve/autodiff");
  return run_benchmarks(argc, argv);
}
