// A comma initialiser given fewer coefficients than the matrix has (Eigen asserts at run
// time; calx traces at compile time and says so there).
// ERRORS: 1
// EXPECT: operator<< was given fewer coefficients than the matrix has
#include <calx/eigen.hpp>

int main() {
  const Eigen::Vector2d v(1, 2);
  const auto g = calx::grad([](const auto& x) {
    calx::eigen::matrix<2, 2> m;
    m << x.x(), x.y(), x.x();
    return m.sum();
  })(v);
  (void)g;
}
