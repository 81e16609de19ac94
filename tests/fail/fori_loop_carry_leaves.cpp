// An integer counter in the carry: a loop carries floats, doubles and tensors of them.
// EXPECT: calx::fori_loop: the carry must hold float, double or traced scalars and calx::tensors
// ERRORS: 1
#include <calx/calx.hpp>

#include <utility>

int main() {
  const double v = calx::grad([](auto x) {
    const auto [c, n] = calx::fori_loop(0, 3, [](auto, auto s) { return std::pair{s.first * 0.5, s.second + 1}; },
                                        std::pair{x, 0});
    return c;
  })(1.0);
  (void)v;
}
