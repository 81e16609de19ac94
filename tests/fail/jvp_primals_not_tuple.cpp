// calx::jvp(f, x, t) with bare values: primals and tangents are tuples of the arguments.
// EXPECT: primals and tangents are std::tuple
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return x * x; };
  auto r = calx::jvp(f, 1.0, 1.0);
  (void)r;
}
