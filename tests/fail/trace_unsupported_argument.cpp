// A std::complex argument: leaves are float or double (or integers, passed through).
// EXPECT: unsupported argument type
// ERRORS: 1
#include <calx/calx.hpp>

#include <complex>

int main() {
  auto f = [](auto x) { return x * 2.0; };
  auto p = calx::trace(f, std::complex<double>(1.0, 2.0));
  (void)p;
}
