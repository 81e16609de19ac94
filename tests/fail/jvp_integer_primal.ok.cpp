// The fix: the integer as a fixed argument of a lambda (stateless: a template parameter here).
#include <calx/calx.hpp>

#include <tuple>

template <int N>
constexpr auto scaled = [](auto x) { return x * N; };

int main() {
  auto [y, t] = calx::jvp(scaled<3>, std::tuple{1.5}, std::tuple{1.0});
  (void)y;
  (void)t;
}
