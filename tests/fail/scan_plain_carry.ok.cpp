// The fix: a traced carry (a zero made from a traced value).
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double g = calx::grad([](auto w, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{s + u, s}; }, 0.0 * w, x);
    return w * end;
  })(2.0, xs);
  (void)g;
}
