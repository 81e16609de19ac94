// ceres_returns_false.cpp's fix: the functor returns true.
#include <calx/ceres.hpp>

struct refuses {
  template <class T>
  constexpr bool operator()(const T* const x, T* residual) const {
    residual[0] = x[0] * x[0];
    return true;
  }
};

int main() {
  calx::ceres_cost_function<refuses, 1, 1> cost;
  double x = 1, r = 0;
  const double* p[] = {&x};
  return cost.Evaluate(p, &r, nullptr) ? 0 : 1;
}
