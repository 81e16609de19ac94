// calx::jvp with tangents whose structure differs from the primals' (an array of 2 for
// an array of 3).
// EXPECT: calx::jvp: the tangents must have the same structure and precision as the primals
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>
#include <tuple>

int main() {
  auto f = [](const auto& v) { return v[0] * v[1] + v[2]; };
  auto r = calx::jvp(f, std::tuple{std::array{1.0, 2.0, 3.0}}, std::tuple{std::array{1.0, 0.0}});
  (void)r;
}
