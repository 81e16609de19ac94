// An Eigen::VectorXd argument: calx compiles a program for sizes known at compile time.
// ERRORS: 1
// EXPECT: an Eigen matrix or array of dynamic size
// EXPECT: use a fixed-size type
#include <calx/eigen.hpp>

int main() {
  Eigen::VectorXd v(3);
  v << 1, 2, 3;
  const auto g = calx::grad([](const auto& x) { return x.squaredNorm(); })(v);
  (void)g;
}
