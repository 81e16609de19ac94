// ceres::DYNAMIC residuals: calx compiles the residuals for a fixed count.
// ERRORS: 1
// EXPECT: the number of residuals must be fixed
#include <calx/ceres.hpp>

struct line {
  template <class T>
  constexpr bool operator()(const T* const m, T* residual) const {
    residual[0] = m[0];
    return true;
  }
};

int main() {
  calx::ceres_cost_function<line, ceres::DYNAMIC, 1> cost;
  return cost.num_residuals() == 1 ? 0 : 1;
}
