// The fix: sum vmap's result over the batch inside a traced function.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return x * x; };
  constexpr auto loss = [](auto xs) { return calx::sum(calx::vmap([](auto x) { return x * x; })(xs)); };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f)(xs);
  auto [value, g] = calx::value_and_grad(loss)(xs);
  (void)r;
  (void)value;
  (void)g;
}
