// A carry holding a tensor beside a traced scalar: a loop's carries are scalars.
// EXPECT: calx::while_loop: the carry must hold float, double or traced scalars
#include <calx/calx.hpp>

#include <utility>

int main() {
  const double d = calx::jacfwd([](auto x) {
    const auto [c, t] = calx::while_loop([](auto s) { return s.first > 1.0; },
                                         [](auto s) { return std::pair{s.first * 0.5, s.second}; },
                                         std::pair{x, calx::tensor<double, 2>{}});
    return c;
  })(10.0);
  (void)d;
}
