// A robot arm's inverse kinematics with Eigen types: the forward kinematics written once with
// Eigen's API, run on Eigen::Vector3d as it is and differentiated by calx (the Jacobian an
// Eigen::Matrix3d), a damped Gauss-Newton solve with Eigen's own LDLT, and the arm's reach over
// a batch of configurations with vmap. docs/eigen.md quotes it.
#include "eigen_arm_kinematics.hpp"

#include <calx/eigen.hpp>

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>


int main() {
  using std::cos, std::sin;
  // [jacobian]
  const Eigen::Vector3d q0(0.3, 0.4, -0.8);
  const Eigen::Matrix3d J = calx::jacfwd([](const auto& q) { return end_effector(q); })(q0);
  // [jacobian]
  const Eigen::Vector3d p0 = end_effector(q0);  // Eigen on numbers, no calx
  std::printf("end effector at q0: (%.6f, %.6f, %.6f)\n", p0.x(), p0.y(), p0.z());
  std::printf("Jacobian at q0:\n");
  for (int i = 0; i < 3; ++i) std::printf("  % .6f % .6f % .6f\n", J(i, 0), J(i, 1), J(i, 2));
  // Central differences of the Eigen code (h = 1e-6: error ~1e-10) agree.
  double worst = 0;
  for (int c = 0; c < 3; ++c) {
    const Eigen::Vector3d h = 1e-6 * Eigen::Vector3d::Unit(c);
    worst = std::max(worst, ((end_effector(q0 + h) - end_effector(q0 - h)) / 2e-6 - J.col(c)).cwiseAbs().maxCoeff());
  }
  std::printf("central differences agree to 1e-8: %s\n", worst <= 1e-8 ? "yes" : "no");

  // [inverse kinematics]
  const Eigen::Vector3d target(0.35, 0.45, 0.55);
  Eigen::Vector3d q = q0;
  int steps = 0;
  for (; steps < 50 && (target - end_effector(q)).norm() > 1e-12; ++steps) {
    // The Jacobian and, as its aux, the position: one program.
    const auto [Jq, p] = calx::jacfwd(
        [](const auto& x) {
          const auto y = end_effector(x);
          return std::pair{y, y};
        },
        calx::has_aux)(q);
    const Eigen::Matrix3d A = Jq.transpose() * Jq + 1e-6 * Eigen::Matrix3d::Identity();
    q += A.ldlt().solve(Jq.transpose() * (target - p));
  }
  // [inverse kinematics]
  std::printf("reached the target in %d steps: q = (%.6f, %.6f, %.6f), error below 1e-12: %s\n", steps, q(0), q(1),
              q(2), (target - end_effector(q)).norm() <= 1e-12 ? "yes" : "no");

  // [batch]
  // How far from singular the arm is, |det J|, over a batch of configurations: the
  // Jacobian's own transform inside vmap's, its determinant Eigen's API on traced values.
  std::vector<Eigen::Vector3d> configurations;
  for (int k = 0; k < 6; ++k) configurations.emplace_back(0.25 * k, 0.2 * k, 0.5 - 0.3 * k);
  const auto manipulability = calx::vmap([](const auto& x) {
    return abs(calx::jacfwd([](const auto& y) { return end_effector(y); })(x).determinant());
  })(configurations);
  // [batch]
  // Its closed form: l1 l2 |sin q2| times the reach in the plane of the links.
  for (std::size_t k = 0; k < configurations.size(); ++k) {
    const Eigen::Vector3d& c = configurations[k];
    const double closed = 0.5 * 0.4 * std::abs(sin(c(2))) * (0.5 * cos(c(1)) + 0.4 * cos(c(1) + c(2)));
    std::printf("q2 = % .2f: |det J| = %.6f, closed form agrees: %s\n", c(2), manipulability[k],
                std::abs(manipulability[k] - closed) <= 1e-14 ? "yes" : "no");
  }
  return 0;
}
