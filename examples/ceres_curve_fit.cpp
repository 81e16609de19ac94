// calx/ceres.hpp: a Ceres residual functor, unchanged, with calx computing its Jacobians
// (docs/ceres.md). Ceres' curve-fitting tutorial: fit y = exp(m x + c) to noisy points.
// Built where Ceres Solver is found (Debian's libceres-dev).
#include <calx/ceres.hpp>

#include <ceres/ceres.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

// The functor as written for ceres::AutoDiffCostFunction: templated on the number type,
// math called unqualified, constexpr and stateless, the observation (x, y) a parameter
// block that the problem holds constant.
struct exp_residual {
  template <class T>
  constexpr bool operator()(const T* const m, const T* const c, const T* const xy, T* residual) const {
    residual[0] = xy[1] - exp(m[0] * xy[0] + c[0]);
    return true;
  }
};

int main() {
  // 67 points of y = exp(0.3 x + 0.1), with a little deterministic noise.
  std::vector<std::array<double, 2>> data(67);
  for (std::size_t i = 0; i < data.size(); ++i) {
    const double x = 5.0 * static_cast<double>(i) / 67.0;
    data[i] = {x, std::exp(0.3 * x + 0.1) + 0.05 * std::sin(7.0 * x)};
  }

  double m = 0.0, c = 0.0;
  ceres::Problem problem;
  for (auto& xy : data) {
    problem.AddResidualBlock(new calx::ceres_cost_function<exp_residual, 1, 1, 1, 2>(new exp_residual), nullptr, &m,
                             &c, xy.data());
    problem.SetParameterBlockConstant(xy.data());
  }
  ceres::Solver::Options options;
  options.linear_solver_type = ceres::DENSE_QR;
  ceres::Solver::Summary summary;
  ceres::Solve(options, &problem, &summary);
  std::printf("fit: m = %.4f, c = %.4f (the data: 0.3, 0.1), converged: %s\n", m, c,
              summary.termination_type == ceres::CONVERGENCE ? "yes" : "no");

  // One residual block's Jacobians against AutoDiffCostFunction's (Jets), same functor.
  calx::ceres_cost_function<exp_residual, 1, 1, 1, 2> calx_cost;
  ceres::AutoDiffCostFunction<exp_residual, 1, 1, 1, 2> jets(new exp_residual);
  const double* params[] = {&m, &c, data[10].data()};
  double r[2], dm[2], dc[2];
  double* calx_jacobians[] = {&dm[0], &dc[0], nullptr};  // null: the data block's is not wanted
  double* jet_jacobians[] = {&dm[1], &dc[1], nullptr};
  calx_cost.Evaluate(params, &r[0], calx_jacobians);
  jets.Evaluate(params, &r[1], jet_jacobians);
  const double diff = std::max({std::abs(r[0] - r[1]), std::abs(dm[0] - dm[1]), std::abs(dc[0] - dc[1])});
  std::printf("point 10: residual %.6f, d/dm %.6f, d/dc %.6f; Jets agree to 1e-12: %s\n", r[0], dm[0], dc[0],
              diff <= 1e-12 ? "yes" : "no");
}
