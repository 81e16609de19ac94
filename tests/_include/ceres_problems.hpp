/// @file tests/_include/ceres_problems.hpp
/// @brief Two least-squares problems as Ceres users write them, for tests/ceres/ and
/// bench/ceres.cpp: a curve fit (y = exp(m x + c)) and bundle adjustment (GradBench's ba:
/// ADBench's camera model, its ba1 camera, point, weight and feature). Each residual is one
/// stateless functor templated on the number type, which ceres::AutoDiffCostFunction runs
/// on Jets and calx::ceres_cost_function traces; the data are parameter blocks held
/// constant. Math is called unqualified, so that both find theirs.
#ifndef CALX_TESTS_CERES_PROBLEMS_HPP
#define CALX_TESTS_CERES_PROBLEMS_HPP

#include <ceres/ceres.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ceres_problems {

/// The residual y - exp(m x + c) of one observation `xy` = (x, y).
struct exp_residual {
  template <class T>
  constexpr bool operator()(const T* const m, const T* const c, const T* const xy, T* residual) const {
    residual[0] = xy[1] - exp(m[0] * xy[0] + c[0]);
    return true;
  }
};

/// The reprojection error of point X by camera `cam` = [rotation (angle-axis, 3), center
/// (3), focal length, principal point (2), radial distortion (2)] at feature `feat`, weighted
/// by w (GradBench's ba, evals/ba). Rodrigues' rotation without its branch at angle 0 (calx
/// traces one program for every input, so the functor cannot branch on a parameter; every
/// camera here is turned).
struct reprojection_error {
  template <class T>
  constexpr bool operator()(const T* const cam, const T* const X, const T* const w, const T* const feat,
                            T* residual) const {
    const T p0 = X[0] - cam[3], p1 = X[1] - cam[4], p2 = X[2] - cam[5];
    const T theta = sqrt(cam[0] * cam[0] + cam[1] * cam[1] + cam[2] * cam[2]);
    const T cos_t = cos(theta), sin_t = sin(theta);
    const T w0 = cam[0] / theta, w1 = cam[1] / theta, w2 = cam[2] / theta;
    const T along = (w0 * p0 + w1 * p1 + w2 * p2) * (T(1) - cos_t);
    const T x0 = p0 * cos_t + (w1 * p2 - w2 * p1) * sin_t + w0 * along;
    const T x1 = p1 * cos_t + (w2 * p0 - w0 * p2) * sin_t + w1 * along;
    const T x2 = p2 * cos_t + (w0 * p1 - w1 * p0) * sin_t + w2 * along;
    const T u = x0 / x2, v = x1 / x2;
    const T r_sq = u * u + v * v;
    const T distortion = T(1) + cam[9] * r_sq + cam[10] * r_sq * r_sq;
    residual[0] = w[0] * (u * distortion * cam[6] + cam[7] - feat[0]);
    residual[1] = w[0] * (v * distortion * cam[6] + cam[8] - feat[1]);
    return true;
  }
};

/// The weight error 1 - w^2.
struct weight_error {
  template <class T>
  constexpr bool operator()(const T* const w, T* residual) const {
    residual[0] = T(1) - w[0] * w[0];
    return true;
  }
};

/// A deterministic number in [-1, 1) (a 64-bit LCG): the same data on every machine.
struct noise {
  std::uint64_t state;
  double operator()() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 52) - 1.0;
  }
};

/// n points of y = exp(0.3 x + 0.1) with noise, x in [0, 5).
inline std::vector<std::array<double, 2>> curve_data(std::size_t n) {
  noise r{7};
  std::vector<std::array<double, 2>> xy(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = 5.0 * static_cast<double>(i) / static_cast<double>(n);
    xy[i] = {x, std::exp(0.3 * x + 0.1) + 0.2 * r()};
  }
  return xy;
}

/// A bundle adjustment problem of n cameras, m points and p observations (observation i:
/// camera i % n, point i % m, as GradBench replicates ba1), each camera, point and feature
/// ba1's moved by a little noise, so that the cameras and points differ.
struct ba_problem {
  std::vector<std::array<double, 11>> cams;
  std::vector<std::array<double, 3>> X;
  std::vector<double> w;
  std::vector<std::array<double, 2>> feats;
  std::vector<std::array<std::size_t, 2>> obs;
};

inline ba_problem make_ba(std::size_t n, std::size_t m, std::size_t p) {
  constexpr std::array<double, 11> cam{-0.758453, -1.109613, -0.845551, 34.556073, 39.676747, 53.881673,
                                       419.194514, 5.864426,  -8.51887,  0.087812,  0.002739};
  constexpr std::array<double, 3> X{7.203245, 0.001144, 3.023326};
  constexpr std::array<double, 2> feat{271.760969, 834.209256};
  noise r{31337};
  ba_problem b;
  b.cams.resize(n);
  for (auto& c : b.cams)
    for (std::size_t k = 0; k < 11; ++k) c[k] = cam[k] * (1.0 + 0.01 * r());
  b.X.resize(m);
  for (auto& x : b.X)
    for (std::size_t k = 0; k < 3; ++k) x[k] = X[k] + 0.1 * r();
  b.w.resize(p);
  b.feats.resize(p);
  b.obs.resize(p);
  for (std::size_t i = 0; i < p; ++i) {
    b.w[i] = 0.417022 + 0.05 * r();
    b.feats[i] = {feat[0] + 5.0 * r(), feat[1] + 5.0 * r()};
    b.obs[i] = {i % n, i % m};
  }
  return b;
}

/// Ceres' cost function for `Functor` of either kind: `Cost<Functor, R, N...>` is
/// ceres::AutoDiffCostFunction or calx::ceres_cost_function.
template <template <class, int, int...> class Cost>
struct ba_costs {
  static ceres::CostFunction* reprojection() { return new Cost<reprojection_error, 2, 11, 3, 1, 2>(new reprojection_error); }
  static ceres::CostFunction* weight() { return new Cost<weight_error, 1, 1>(new weight_error); }
};

/// Adds b's residuals to `problem` with the cost functions of `Cost` (the features held
/// constant). The residual blocks share two cost functions; the problem deletes each once.
template <template <class, int, int...> class Cost>
void add_ba(ceres::Problem& problem, ba_problem& b) {
  ceres::CostFunction* reprojection = ba_costs<Cost>::reprojection();
  ceres::CostFunction* weight = ba_costs<Cost>::weight();
  for (std::size_t i = 0; i < b.obs.size(); ++i) {
    problem.AddResidualBlock(reprojection, nullptr, b.cams[b.obs[i][0]].data(), b.X[b.obs[i][1]].data(), &b.w[i],
                             b.feats[i].data());
    problem.SetParameterBlockConstant(b.feats[i].data());
    problem.AddResidualBlock(weight, nullptr, &b.w[i]);
  }
}

/// Solver options for b: the points eliminated first (Schur), the cameras and weights left
/// in the reduced system, as bundle adjusters order them (Ceres' own choice of an
/// independent set may eliminate other blocks and leave a dense system of the points).
inline ceres::Solver::Options ba_options(ba_problem& b, ceres::LinearSolverType solver, int iterations) {
  ceres::Solver::Options o;
  o.linear_solver_type = solver;
  o.max_num_iterations = iterations;
  o.num_threads = 1;
  auto ordering = std::make_shared<ceres::ParameterBlockOrdering>();
  for (auto& x : b.X) ordering->AddElementToGroup(x.data(), 0);
  for (auto& f : b.feats) ordering->AddElementToGroup(f.data(), 0);  // constant
  for (double& w : b.w) ordering->AddElementToGroup(&w, 1);
  for (auto& c : b.cams) ordering->AddElementToGroup(c.data(), 1);
  o.linear_solver_ordering = ordering;
  return o;
}

}  // namespace ceres_problems

#endif  // CALX_TESTS_CERES_PROBLEMS_HPP
