// eigen_large_inverse.cpp's fix: a 4 x 4 block (or calx::tensor code for larger systems).
#include <calx/eigen.hpp>

int main() {
  const Eigen::Matrix4d a = Eigen::Matrix4d::Identity();
  const auto g = calx::grad([](const auto& m) { return m.inverse().sum(); })(a);
  (void)g;
}
