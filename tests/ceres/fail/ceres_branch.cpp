// A Ceres functor that branches on a parameter's value: calx traces one program for every
// input, so the branch cannot be taken at compile time.
// ERRORS: 1
// EXPECT: the function branches on a traced value
#include <calx/ceres.hpp>

struct absolute {
  template <class T>
  constexpr bool operator()(const T* const x, T* residual) const {
    if (x[0] > T(0))
      residual[0] = x[0];
    else
      residual[0] = -x[0];
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
