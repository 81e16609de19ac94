// ceres_branch.cpp's fix: the residual written without the branch.
#include <calx/ceres.hpp>

struct absolute {
  template <class T>
  constexpr bool operator()(const T* const x, T* residual) const {
    residual[0] = abs(x[0]);
    return true;
  }
};

int main() {
  calx::ceres_cost_function<absolute, 1, 1> cost;
  double x = 1, r = 0, j = 0;
  const double* p[] = {&x};
  double* jac[] = {&j};
  return cost.Evaluate(p, &r, jac) ? 0 : 1;
}
