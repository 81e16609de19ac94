// An int argument: leaves are float or double (an easy slip: 1 instead of 1.0).
// EXPECT: unsupported argument type
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return x * 2.0; };
  auto p = calx::trace(f, 1);
  (void)p;
}
