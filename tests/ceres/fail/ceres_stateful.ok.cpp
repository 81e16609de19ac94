// ceres_stateful.cpp's fix: the data (x, y) as a parameter block, held constant in the
// problem (ceres::Problem::SetParameterBlockConstant).
#include <calx/ceres.hpp>

struct fit {
  template <class T>
  constexpr bool operator()(const T* const m, const T* const xy, T* residual) const {
    residual[0] = xy[1] - m[0] * xy[0];
    return true;
  }
};

int main() {
  calx::ceres_cost_function<fit, 1, 1, 2> cost;
  return cost.num_residuals() == 1 ? 0 : 1;
}
