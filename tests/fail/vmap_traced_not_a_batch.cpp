// Inside a traced function, vmap with in_axes 0 on a value that is neither a runtime batch
// nor a std::array.
// EXPECT: calx::vmap: an argument with in_axes 0 is not a batch here
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) { return calx::vmap([](auto y) { return y * y; })(x); };
  auto g = calx::grad(f)(2.0);
  (void)g;
}
