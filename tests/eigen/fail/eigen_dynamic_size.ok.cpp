// eigen_dynamic_size.cpp's fix: the size fixed.
#include <calx/eigen.hpp>

int main() {
  const Eigen::Vector3d v(1, 2, 3);
  const auto g = calx::grad([](const auto& x) { return x.squaredNorm(); })(v);
  (void)g;
}
