// calx::switch_ with a plain double as the index: a branch is named by an integer (or, inside
// a traced function, by a traced value).
// EXPECT: calx::switch_: the index must be an integer
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  constexpr auto branches = std::tuple{[](auto x) { return x; }, [](auto x) { return x * x; }};
  auto r = calx::switch_(1.0, branches, 2.0);
  (void)r;
}
