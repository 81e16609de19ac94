// The fix: the same vmap over host memory (the SIMD executor runs loops).
#include <calx/calx.hpp>

#include <vector>

int main() {
  std::vector<double> x{1, 2, 3, 4}, out(4);
  const auto f = [](auto v) { return calx::fori_loop(0, 3, [](auto, auto c) { return c * c + 0.5; }, v); };
  calx::vmap(f).into(out)(x);
  return out[0] == ((1.5 * 1.5 + 0.5) * (1.5 * 1.5 + 0.5) + 0.5) ? 0 : 1;
}
