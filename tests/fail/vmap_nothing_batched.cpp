// calx::vmap where every argument is broadcast: there is no batch to map over (JAX needs
// axis_size here; calx has no such option).
// EXPECT: calx::vmap: no argument is batched; give at least one argument in_axes 0
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) { return x * x; };
  auto r = calx::vmap(f, calx::in_axes<calx::none>)(2.0);
  (void)r;
}
