// The fix: a new value for a result of another shape (or b that broadcasts to t's shape).
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](const auto& v, const auto& m) {
    auto t = m;
    t += v;  // [2, 3] += [3]: v broadcasts
    const auto s = v + m;  // a new [2, 3] value
    return calx::sum(t) + calx::sum(s);
  };
  auto g = calx::grad(f)(calx::tensor<double, 3>{}, calx::tensor<double, 2, 3>{});
  (void)g;
}
