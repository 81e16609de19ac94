// The fix: an integer index.
#include <calx/calx.hpp>

#include <tuple>

int main() {
  constexpr auto branches = std::tuple{[](auto x) { return x; }, [](auto x) { return x * x; }};
  auto r = calx::switch_(1, branches, 2.0);
  (void)r;
}
