// The fix: the real and imaginary parts as a std::pair of doubles.
#include <calx/calx.hpp>

#include <utility>

int main() {
  auto f = [](auto z) { return std::pair{z.first * 2.0, z.second * 2.0}; };
  auto p = calx::trace(f, std::pair{1.0, 2.0});
  (void)p;
}
