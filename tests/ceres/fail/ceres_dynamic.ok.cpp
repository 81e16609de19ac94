// ceres_dynamic.cpp's fix: the residual count fixed.
#include <calx/ceres.hpp>

struct line {
  template <class T>
  constexpr bool operator()(const T* const m, T* residual) const {
    residual[0] = m[0];
    return true;
  }
};

int main() {
  calx::ceres_cost_function<line, 1, 1> cost;
  return cost.num_residuals() == 1 ? 0 : 1;
}
