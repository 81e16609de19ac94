// The fix: keep the batch's type (auto), so the transform sees a calx::batch_tracer.
#include <calx/calx.hpp>

#include <vector>

constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };

int main() {
  const std::vector<double> xs{0.5, 1.0, 2.0};
  auto p = calx::trace(
      [](auto w, auto xs) {
        const auto ys = xs * 2.0;
        return calx::grad(loss)(w, ys);
      },
      0.3, xs);
  (void)p;
}
