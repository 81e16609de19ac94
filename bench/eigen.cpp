// bench_eigen: the Jacobian of a robot arm's end effector (examples/eigen_arm_kinematics.hpp:
// three joints, the forward kinematics written once with Eigen's API) at 4096
// configurations, Eigen types in and out, by
//   - calx::jacfwd, one call per configuration (an Eigen::Matrix3d each);
//   - calx::vmap(calx::jacfwd) over the std::vector<Eigen::Vector3d>, into the results;
//   - Eigen's own forward mode, AutoDiffScalar<Vector3d>, on the same template;
//   - the closed form by hand (the reference: six sines and cosines, shared).
// The same configurations and result buffers for all; all checked to agree before timing.
// docs/performance.md, "Eigen".
#include <calx/eigen.hpp>

#include "bench_common.hpp"

#include <eigen_arm_kinematics.hpp>

#include <unsupported/Eigen/AutoDiff>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

using namespace calx_bench;

constexpr std::size_t configurations = 4096;

struct problem {
  std::vector<Eigen::Vector3d> q;
  std::vector<Eigen::Matrix3d> J = std::vector<Eigen::Matrix3d>(configurations);
  problem() {
    std::vector<double> a;
    fill_uniform(a, 3 * configurations, -3.0, 3.0, 7);
    for (std::size_t k = 0; k < configurations; ++k) q.emplace_back(a[3 * k], a[3 * k + 1], a[3 * k + 2]);
  }
};

problem& data() {
  static problem p;
  return p;
}

constexpr auto fk = [](const auto& x) { return end_effector(x); };

void calx_jacfwd(problem& p) {
  for (std::size_t k = 0; k < configurations; ++k) p.J[k] = calx::jacfwd(fk)(p.q[k]);
}

void calx_vmap(problem& p) {
  calx::vmap(calx::jacfwd(fk)).into(std::span<Eigen::Matrix3d>(p.J))(p.q);
}

void eigen_autodiff(problem& p) {
  using AD = Eigen::AutoDiffScalar<Eigen::Vector3d>;
  for (std::size_t k = 0; k < configurations; ++k) {
    Eigen::Matrix<AD, 3, 1> x;
    for (int i = 0; i < 3; ++i) x(i) = AD(p.q[k](i), 3, i);
    const Eigen::Matrix<AD, 3, 1> y = end_effector(x);
    for (int i = 0; i < 3; ++i) p.J[k].row(i) = y(i).derivatives().transpose();
  }
}

/// p = (c0 r, s0 r, 0.3 + z), r = 0.5 c1 + 0.4 c12, z = 0.5 s1 + 0.4 s12.
void by_hand(problem& p) {
  for (std::size_t k = 0; k < configurations; ++k) {
    const Eigen::Vector3d& q = p.q[k];
    const double s0 = std::sin(q(0)), c0 = std::cos(q(0)), s1 = std::sin(q(1)), c1 = std::cos(q(1));
    const double s12 = std::sin(q(1) + q(2)), c12 = std::cos(q(1) + q(2));
    const double r = 0.5 * c1 + 0.4 * c12, z = 0.5 * s1 + 0.4 * s12;
    Eigen::Matrix3d& J = p.J[k];
    J(0, 0) = -s0 * r;
    J(1, 0) = c0 * r;
    J(2, 0) = 0.0;
    J(0, 1) = -c0 * z;
    J(1, 1) = -s0 * z;
    J(2, 1) = r;
    J(0, 2) = -0.4 * c0 * s12;
    J(1, 2) = -0.4 * s0 * s12;
    J(2, 2) = 0.4 * c12;
  }
}

template <void (*Run)(problem&)>
void bm_jacobian(benchmark::State& state) {
  problem& p = data();
  for (auto _ : state) {
    Run(p);
    benchmark::ClobberMemory();
  }
  state.counters["per_jacobian_ns"] = benchmark::Counter(static_cast<double>(configurations),
                                                         benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}

/// Each way's Jacobians against the closed form's, before anything is timed.
bool check_agreement() {
  problem& p = data();
  by_hand(p);
  const std::vector<Eigen::Matrix3d> reference = p.J;
  bool ok = true;
  auto check = [&](const char* name, void (*run)(problem&)) {
    for (Eigen::Matrix3d& J : p.J) J.setConstant(std::nan(""));
    run(p);
    double worst = 0;
    for (std::size_t k = 0; k < configurations; ++k) worst = std::max(worst, (p.J[k] - reference[k]).cwiseAbs().maxCoeff());
    std::printf("%s: largest difference from the closed form %.2e\n", name, worst);
    ok = ok && worst <= 1e-14;
  };
  check("calx::jacfwd", calx_jacfwd);
  check("calx::vmap(calx::jacfwd)", calx_vmap);
  check("AutoDiffScalar", eigen_autodiff);
  return ok;
}

}  // namespace

BENCHMARK(bm_jacobian<calx_jacfwd>)->Name("eigen/arm_jacobian/calx_jacfwd")->ComputeStatistics("min", min_of);
BENCHMARK(bm_jacobian<calx_vmap>)->Name("eigen/arm_jacobian/calx_vmap")->ComputeStatistics("min", min_of);
BENCHMARK(bm_jacobian<eigen_autodiff>)->Name("eigen/arm_jacobian/autodiff_scalar")->ComputeStatistics("min", min_of);
BENCHMARK(bm_jacobian<by_hand>)->Name("eigen/arm_jacobian/hand")->ComputeStatistics("min", min_of);

int main(int argc, char** argv) {
  if (!check_agreement()) {
    std::fprintf(stderr, "bench_eigen: the Jacobians disagree\n");
    return 1;
  }
  compare("arm Jacobian, calx::jacfwd / hand", "eigen/arm_jacobian/calx_jacfwd", "eigen/arm_jacobian/hand");
  compare("arm Jacobian, calx vmap / hand", "eigen/arm_jacobian/calx_vmap", "eigen/arm_jacobian/hand");
  compare("arm Jacobian, AutoDiffScalar / hand", "eigen/arm_jacobian/autodiff_scalar", "eigen/arm_jacobian/hand");
  return run_benchmarks(argc, argv);
}
