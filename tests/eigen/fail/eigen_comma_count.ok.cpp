// eigen_comma_count.cpp's fix: every coefficient given.
#include <calx/eigen.hpp>

int main() {
  const Eigen::Vector2d v(1, 2);
  const auto g = calx::grad([](const auto& x) {
    calx::eigen::matrix<2, 2> m;
    m << x.x(), x.y(), x.x(), 0.0;
    return m.sum();
  })(v);
  (void)g;
}
