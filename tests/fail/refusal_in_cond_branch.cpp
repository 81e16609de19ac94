// A misuse met while tracing a cond's branch (t[k] on a traced tensor operand), the cond
// under jacrev: the branch's program is refused, the cond's node hands the refusal to the
// function's program, and the transform reports it in one error.
// EXPECT: calx: t\[k\] on a traced tensor, which has no numbers
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 2> x = calx::tensor<double, 2>{} + 1.5;
  const auto j = calx::jacrev([](const auto& t) {
    return calx::cond(
        calx::sum(t) > 0.0, [](const auto& u) { return u * u[1]; }, [](const auto& u) { return u; }, t);
  })(x);
  (void)j;
}
