// A transform of a function that reduces over a runtime batch, called inside a traced
// function of one's own on a batch that was stored in a calx::tracer: the type no longer
// says it is a batch, so the inner function would see one number. Refused with a message
// that names calx::batch_tracer and the fix (the twin keeps the type with auto; the cases
// that work are in tests/_include/vmap_transformed_cases.hpp).
// EXPECT: a batch stored in a calx::tracer has lost it \(keep it in an auto variable\)
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };

int main() {
  const std::vector<double> xs{0.5, 1.0, 2.0};
  auto p = calx::trace(
      [](auto w, auto xs) {
        const calx::tracer ys = xs * 2.0;
        return calx::grad(loss)(w, ys);
      },
      0.3, xs);
  (void)p;
}
