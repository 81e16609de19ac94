// The fix: the branches in a std::tuple.
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto r = calx::switch_(1, std::tuple{[](auto x) { return x; }}, 2.0);
  (void)r;
}
