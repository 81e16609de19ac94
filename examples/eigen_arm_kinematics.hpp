// The forward kinematics of examples/eigen_arm.cpp's robot arm, written once with Eigen's API
// for any coefficient type: Eigen on doubles, calx's traced form when calx traces it, Eigen's
// own AutoDiffScalar or a Ceres Jet (bench/eigen.cpp times it against them).
#ifndef CALX_EXAMPLES_EIGEN_ARM_KINEMATICS_HPP
#define CALX_EXAMPLES_EIGEN_ARM_KINEMATICS_HPP

#include <calx/eigen.hpp>

#include <Eigen/Core>

// [forward kinematics]
// Joint 0 turns the arm about z; joints 1 and 2 pitch its two links (0.5 m and 0.4 m) about
// y, on a base 0.3 m high. `Q` is an Eigen::Vector3d (of doubles, or of any number type
// Eigen takes), or its traced form when calx traces.
template <class Q>
constexpr auto end_effector(const Q& q) {
  using T = typename Q::Scalar;
  using Matrix3 = calx::eigen::rebind_t<Eigen::Matrix3d, T>;
  using Vector3 = calx::eigen::rebind_t<Eigen::Vector3d, T>;
  auto rot_z = [](const T& a) {
    Matrix3 r;
    r << cos(a), -sin(a), 0.0, sin(a), cos(a), 0.0, 0.0, 0.0, 1.0;
    return r;
  };
  auto rot_y = [](const T& a) {
    Matrix3 r;
    r << cos(a), 0.0, -sin(a), 0.0, 1.0, 0.0, sin(a), 0.0, cos(a);
    return r;
  };
  const Vector3 upper(0.5, 0.0, 0.0), lower(0.4, 0.0, 0.0), base(0.0, 0.0, 0.3);
  const Vector3 p = base + rot_z(q(0)) * (rot_y(q(1)) * (upper + rot_y(q(2)) * lower));
  return p;
}
// [forward kinematics]

#endif  // CALX_EXAMPLES_EIGEN_ARM_KINEMATICS_HPP
