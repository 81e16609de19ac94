// A carry holding a tensor beside a traced scalar: a loop's carries are scalars.
// EXPECT: calx::fori_loop: the carry must hold float, double or traced scalars
#include <calx/calx.hpp>

#include <utility>

int main() {
  const double v = calx::grad([](auto x) {
    const auto [c, t] = calx::fori_loop(0, 3, [](auto, auto s) { return std::pair{s.first * 0.5, s.second}; },
                                        std::pair{x, calx::tensor<double, 2>{}});
    return c;
  })(1.0);
  (void)v;
}
