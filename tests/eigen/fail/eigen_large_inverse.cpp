// inverse() of a traced 5 x 5 matrix: calx writes inverses out by cofactors up to 4 x 4 (a
// pivoting factorisation would branch on the values).
// ERRORS: 1
// EXPECT: inverse\(\) of a traced matrix is written out for square matrices up to 4 x 4
#include <calx/eigen.hpp>

int main() {
  const Eigen::Matrix<double, 5, 5> a = Eigen::Matrix<double, 5, 5>::Identity();
  const auto g = calx::grad([](const auto& m) { return m.inverse().sum(); })(a);
  (void)g;
}
