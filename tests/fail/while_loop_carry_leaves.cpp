// An integer counter in the carry: a loop carries floats, doubles and tensors of them.
// EXPECT: calx::while_loop: the carry must hold float, double or traced scalars and calx::tensors
// ERRORS: 1
#include <calx/calx.hpp>

#include <utility>

int main() {
  const double d = calx::jacfwd([](auto x) {
    const auto [c, n] = calx::while_loop([](auto s) { return s.first > 1.0; },
                                         [](auto s) { return std::pair{s.first * 0.5, s.second + 1}; },
                                         std::pair{x, 0});
    return c;
  })(10.0);
  (void)d;
}
