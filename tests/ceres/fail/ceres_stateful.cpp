// A Ceres functor with data members: calx traces it at compile time, where its members'
// runtime values are not known.
// ERRORS: 1
// EXPECT: the functor must be stateless
// EXPECT: SetParameterBlockConstant
#include <calx/ceres.hpp>

struct fit {
  double x, y;
  template <class T>
  constexpr bool operator()(const T* const m, T* residual) const {
    residual[0] = y - m[0] * x;
    return true;
  }
};

int main() {
  calx::ceres_cost_function<fit, 1, 1> cost;
  return cost.num_residuals() == 1 ? 0 : 1;
}
