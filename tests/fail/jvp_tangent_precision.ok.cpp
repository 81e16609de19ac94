// The fix: tangents in the primals' precision.
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x) { return x * x; };
  auto r = calx::jvp(f, std::tuple{1.0}, std::tuple{1.0});
  (void)r;
}
