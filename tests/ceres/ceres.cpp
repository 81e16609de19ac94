// calx::ceres_cost_function against ceres::AutoDiffCostFunction on the same functors: the
// residuals agree to 1e-12 relative to max(1, |value|), and the Jacobians to 1e-12 relative
// to max(1, the largest |entry| of their row), blocks held constant are left alone, and
// Ceres' solver takes the same steps to the same result with either.
//
// Why a Jacobian entry is compared at its row's scale: an entry computed as a difference of
// large terms carries their rounding. In bundle adjustment the derivative in the weight is
// the unweighted reprojection error, a difference of pixel coordinates of ~800, and where it
// is ~1 calx and Jets differ in the 12th digit (bench_ceres over 31,843 observations: 1.0e-12
// of the entry, 3e-16 of the row's largest entry; against a long double Jet both are within
// 3e-16 of the row's largest).
#include <calx/ceres.hpp>

#include <_include/ceres_problems.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

namespace {

using namespace ceres_problems;

template <class F, int R, int... N>
using autodiff = ceres::AutoDiffCostFunction<F, R, N...>;

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)}); }

/// Evaluates both cost functions at `params` and checks residuals and every Jacobian block.
void check_same(const ceres::CostFunction& calx_cost, const ceres::CostFunction& reference,
                const std::vector<double*>& params) {
  const int r = reference.num_residuals();
  REQUIRE(calx_cost.num_residuals() == r);
  REQUIRE(calx_cost.parameter_block_sizes() == reference.parameter_block_sizes());
  const std::vector<int32_t>& sizes = reference.parameter_block_sizes();
  std::vector<double> res_a(r), res_b(r);
  std::vector<std::vector<double>> jac_a, jac_b;
  std::vector<double*> ja, jb;
  for (int32_t s : sizes) {
    jac_a.emplace_back(static_cast<std::size_t>(r * s), -7.0);
    jac_b.emplace_back(static_cast<std::size_t>(r * s), -7.0);
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    ja.push_back(jac_a[i].data());
    jb.push_back(jac_b[i].data());
  }
  REQUIRE(calx_cost.Evaluate(params.data(), res_a.data(), ja.data()));
  REQUIRE(reference.Evaluate(params.data(), res_b.data(), jb.data()));
  for (int k = 0; k < r; ++k) CHECK(close(res_a[k], res_b[k]));
  std::vector<double> row_scale(static_cast<std::size_t>(r), 1.0);
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (std::size_t e = 0; e < jac_b[i].size(); ++e) {
      double& s = row_scale[e / static_cast<std::size_t>(sizes[i])];
      s = std::max(s, std::abs(jac_b[i][e]));
    }
  auto close_in_row = [&](std::size_t block, std::size_t e, double a, double b) {
    return std::abs(a - b) <= 1e-12 * row_scale[e / static_cast<std::size_t>(sizes[block])];
  };
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (std::size_t e = 0; e < jac_a[i].size(); ++e) {
      INFO("block " << i << ", entry " << e << ": calx " << jac_a[i][e] << ", Jets " << jac_b[i][e]);
      CHECK(close_in_row(i, e, jac_a[i][e], jac_b[i][e]));
    }

  // The residuals alone (no Jacobians asked for), and with the last block's Jacobian not
  // asked for (a constant block): the others written, that one left alone.
  std::vector<double> res_c(r, -7.0);
  REQUIRE(calx_cost.Evaluate(params.data(), res_c.data(), nullptr));
  for (int k = 0; k < r; ++k) CHECK(close(res_c[k], res_b[k]));
  std::vector<std::vector<double>> jac_c;
  std::vector<double*> jc;
  for (int32_t s : sizes) jac_c.emplace_back(static_cast<std::size_t>(r * s), -7.0);
  for (std::size_t i = 0; i < sizes.size(); ++i) jc.push_back(i + 1 < sizes.size() ? jac_c[i].data() : nullptr);
  REQUIRE(calx_cost.Evaluate(params.data(), res_c.data(), jc.data()));
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i)
    for (std::size_t e = 0; e < jac_c[i].size(); ++e) CHECK(close_in_row(i, e, jac_c[i][e], jac_b[i][e]));
  CHECK(std::all_of(jac_c.back().begin(), jac_c.back().end(), [](double v) { return v == -7.0; }));
}

/// Constants the functor writes fold as numbers (a comparison of two is a bool), and meet
/// traced values through every operator and function form.
struct with_constants {
  template <class T>
  constexpr bool operator()(const T* const x, T* residual) const {
    const T two = T(1) + T(1);
    T scale = two * T(3) / T(4);  // 1.5
    scale -= T(0.5);
    if (two > T(1)) scale *= two;  // a branch on constants: 2
    residual[0] = scale * x[0] * x[0] - x[0] / 4.0;
#if !defined(__clang__)  // math on constants alone: g++ computes it while tracing, clang 14 cannot
    residual[0] += exp(T(0)) + sqrt(T(4));
#endif
    residual[1] = -x[0] + pow(x[0], 3.0) + atan2(x[0], two) + 2.0 * x[0] + hypot(x[0], x[1]);
    residual[2] = (x[1] - 1.0) * (3.0 - x[1]) + fmax(x[0], x[1]) + sin(x[0]) * cos(x[1]) + log(x[1] + 2.0);
    return true;
  }
};

/// Two cameras held: bundle adjustment is otherwise free to move, turn and scale the whole
/// scene (7 directions of equal cost), along which two solves drift apart by more than the
/// rounding of their Jacobians.
void hold_gauge(ceres::Problem& problem, ba_problem& b) {
  problem.SetParameterBlockConstant(b.cams[0].data());
  problem.SetParameterBlockConstant(b.cams[1].data());
}

ceres::Solver::Options solver_options(ceres::LinearSolverType linear_solver, int iterations) {
  ceres::Solver::Options o;
  o.linear_solver_type = linear_solver;
  o.max_num_iterations = iterations;
  o.function_tolerance = 1e-14;
  o.gradient_tolerance = 1e-14;
  o.parameter_tolerance = 1e-14;
  o.num_threads = 1;
  return o;
}

}  // namespace

TEST_CASE("ceres: the curve fit's residuals and Jacobians are AutoDiffCostFunction's") {
  const calx::ceres_cost_function<exp_residual, 1, 1, 1, 2> calx_cost;
  const autodiff<exp_residual, 1, 1, 1, 2> reference(new exp_residual);
  for (auto xy : curve_data(20)) {
    for (double m : {-0.5, 0.0, 0.3, 1.25}) {
      double c = 0.1 - 0.2 * m;
      check_same(calx_cost, reference, {&m, &c, xy.data()});
    }
  }
}

TEST_CASE("ceres: constants in the functor, operators and functions") {
  const calx::ceres_cost_function<with_constants, 3, 2> calx_cost;
  const autodiff<with_constants, 3, 2> reference(new with_constants);
  for (std::array<double, 2> x : {std::array{0.5, 1.5}, std::array{-1.25, 0.75}, std::array{2.0, 3.0}})
    check_same(calx_cost, reference, {x.data()});
}

TEST_CASE("ceres: the curve fit solves as with AutoDiffCostFunction") {
  std::vector<std::array<double, 2>> xy = curve_data(67);
  double m[2] = {0.0, 0.0}, c[2] = {0.0, 0.0};
  ceres::Solver::Summary summary[2];
  for (int kind = 0; kind < 2; ++kind) {
    ceres::Problem problem;
    for (auto& d : xy) {
      ceres::CostFunction* cost = kind == 0 ? static_cast<ceres::CostFunction*>(new calx::ceres_cost_function<exp_residual, 1, 1, 1, 2>)
                                            : new autodiff<exp_residual, 1, 1, 1, 2>(new exp_residual);
      problem.AddResidualBlock(cost, nullptr, &m[kind], &c[kind], d.data());
      problem.SetParameterBlockConstant(d.data());
    }
    ceres::Solve(solver_options(ceres::DENSE_QR, 100), &problem, &summary[kind]);
    REQUIRE(summary[kind].IsSolutionUsable());
  }
  CHECK(summary[0].iterations.size() == summary[1].iterations.size());
  CHECK(close(summary[0].final_cost, summary[1].final_cost));
  CHECK(close(m[0], m[1]));
  CHECK(close(c[0], c[1]));
  // And the fit found the curve the data were drawn from (noise 0.2).
  CHECK(std::abs(m[0] - 0.3) < 0.05);
  CHECK(std::abs(c[0] - 0.1) < 0.1);
}

TEST_CASE("ceres: bundle adjustment's residuals and Jacobians are AutoDiffCostFunction's") {
  ba_problem b = make_ba(49, 7776, 2000);
  const std::unique_ptr<ceres::CostFunction> calx_reprojection(ba_costs<calx::ceres_cost_function>::reprojection());
  const std::unique_ptr<ceres::CostFunction> reprojection(ba_costs<autodiff>::reprojection());
  const std::unique_ptr<ceres::CostFunction> calx_weight(ba_costs<calx::ceres_cost_function>::weight());
  const std::unique_ptr<ceres::CostFunction> weight(ba_costs<autodiff>::weight());
  for (std::size_t i = 0; i < b.obs.size(); ++i) {
    check_same(*calx_reprojection, *reprojection,
               {b.cams[b.obs[i][0]].data(), b.X[b.obs[i][1]].data(), &b.w[i], b.feats[i].data()});
    check_same(*calx_weight, *weight, {&b.w[i]});
  }
}

/// AutoDiffCostFunction with every Jacobian entry moved by a few units in the last place: a
/// solve with it shows how far rounding alone carries two solves apart.
template <class F, int R, int... N>
struct jittered final : ceres::SizedCostFunction<R, N...> {
  explicit jittered(F* f) : exact(f) {}
  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    if (!exact.Evaluate(parameters, residuals, jacobians)) return false;
    if (jacobians == nullptr) return true;
    const int sizes[] = {N...};
    for (std::size_t i = 0; i < sizeof...(N); ++i)
      if (jacobians[i] != nullptr)
        for (int e = 0; e < R * sizes[i]; ++e) jacobians[i][e] *= 1.0 + 4e-16 * jitter();
    return true;
  }
  autodiff<F, R, N...> exact;
  mutable noise jitter{99};
};

/// The largest difference between two solutions, each parameter relative to max(1, |value|).
double solution_gap(const ba_problem& a, const ba_problem& b) {
  double gap = 0;
  auto at = [&](double x, double y) { gap = std::max(gap, std::abs(x - y) / std::max(1.0, std::abs(y))); };
  for (std::size_t j = 0; j < a.cams.size(); ++j)
    for (std::size_t k = 0; k < 11; ++k) at(a.cams[j][k], b.cams[j][k]);
  for (std::size_t j = 0; j < a.X.size(); ++j)
    for (std::size_t k = 0; k < 3; ++k) at(a.X[j][k], b.X[j][k]);
  for (std::size_t j = 0; j < a.w.size(); ++j) at(a.w[j], b.w[j]);
  return gap;
}

template <template <class, int, int...> class Cost>
ceres::Solver::Summary solve_ba(ba_problem& b) {
  ceres::Problem problem;
  add_ba<Cost>(problem, b);
  hold_gauge(problem, b);
  ceres::Solver::Summary summary;
  ceres::Solve(ba_options(b, ceres::DENSE_SCHUR, 10), &problem, &summary);
  return summary;
}

TEST_CASE("ceres: bundle adjustment solves as with AutoDiffCostFunction") {
  ba_problem b[3] = {make_ba(7, 40, 280), make_ba(7, 40, 280), make_ba(7, 40, 280)};
  const ceres::Solver::Summary with_calx = solve_ba<calx::ceres_cost_function>(b[0]);
  const ceres::Solver::Summary with_jets = solve_ba<autodiff>(b[1]);
  const ceres::Solver::Summary with_jitter = solve_ba<jittered>(b[2]);
  REQUIRE(with_calx.IsSolutionUsable());
  CHECK(with_calx.final_cost < 0.5 * with_calx.initial_cost);  // the solve did something
  CHECK(with_calx.iterations.size() == with_jets.iterations.size());
  // Ten steps of the same solver from the same start take the same path up to the rounding
  // of the Jacobians, which the steps' linear solves amplify (the reduced system is badly
  // scaled: focal lengths of ~400 beside distortions of ~0.003). How far rounding alone
  // carries a solve is measured by the jittered one (each entry moved by up to 4e-16 of
  // itself, about 2 units in the last place; it lands ~1e-8 from the exact one here), and
  // calx's solve must be no farther from the Jets' than 4 times that.
  const double rounding = solution_gap(b[2], b[1]), cost_rounding = std::abs(with_jitter.final_cost - with_jets.final_cost);
  INFO("calx - Jets: " << solution_gap(b[0], b[1]) << " (cost " << with_calx.final_cost - with_jets.final_cost
                       << "); jittered - Jets: " << rounding << " (cost " << cost_rounding << ")");
  CHECK(rounding < 1e-6);  // the problem is solvable to that precision at all
  CHECK(solution_gap(b[0], b[1]) <= 4 * rounding + 1e-14);
  CHECK(std::abs(with_calx.final_cost - with_jets.final_cost) <= 4 * cost_rounding + 1e-14 * with_jets.final_cost);
}

TEST_CASE("ceres: the functor is the cost function's, owned or not") {
  exp_residual on_stack;
  const calx::ceres_cost_function<exp_residual, 1, 1, 1, 2> borrowed(&on_stack, ceres::DO_NOT_TAKE_OWNERSHIP);
  const calx::ceres_cost_function<exp_residual, 1, 1, 1, 2> owned(new exp_residual);
  CHECK(borrowed.num_residuals() == 1);
  CHECK(owned.parameter_block_sizes() == std::vector<int32_t>{1, 1, 2});
  double m = 0.5, c = 0.25, xy[2] = {2.0, 3.0};
  const double* params[] = {&m, &c, xy};
  double r = 0;
  REQUIRE(owned.Evaluate(params, &r, nullptr));
  CHECK(close(r, 3.0 - std::exp(0.5 * 2.0 + 0.25)));
}
