// The fix: the counter as a double.
#include <calx/calx.hpp>

#include <utility>

int main() {
  const double d = calx::jacfwd([](auto x) {
    const auto [c, n] = calx::while_loop([](auto s) { return s.first > 1.0; },
                                         [](auto s) { return std::pair{s.first * 0.5, s.second + 1.0}; },
                                         std::pair{x, 0.0});
    return c;
  })(10.0);
  (void)d;
}
