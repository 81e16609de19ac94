// A helper function that is not constexpr: tracing runs in a constant expression.
// EXPECT: could not be traced at compile time
#include <calx/calx.hpp>

template <class T>
T square(const T& x) {
  return x * x;
}

int main() {
  auto f = [](auto x) { return square(x) + 1.0; };
  auto p = calx::trace(f, 1.0);
  (void)p;
}
