// The fix: both branches return the same precision.
#include <calx/calx.hpp>
#include <calx/cond.hpp>

int main(int argc, char**) {
  auto r = calx::cond(argc > 1, [](float a) { return a; }, [](float a) { return 2.0f * a; }, 1.0f);
  (void)r;
}
