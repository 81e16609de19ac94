// The fix: the counter as a double (a tensor beside the scalars is fine too).
#include <calx/calx.hpp>

#include <utility>

int main() {
  const double v = calx::grad([](auto x) {
    const auto [c, n] = calx::fori_loop(0, 3, [](auto, auto s) { return std::pair{s.first * 0.5, s.second + 1.0}; },
                                        std::pair{x, 0.0});
    return c;
  })(1.0);
  (void)v;
}
