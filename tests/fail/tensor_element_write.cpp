// Writing an element of a traced tensor, with a compound assignment as with `=`: tensors are
// values while traced.
// EXPECT: calx: an element of a traced tensor written
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 3> x{};
  const auto g = calx::grad([](auto t) {
    t(0) += 1.0;
    return calx::sum(t * t);
  })(x);
  (void)g;
}
