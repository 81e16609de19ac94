// calx::simd_dispatch in a translation unit whose target calx_simd_dispatch did not set up:
// there is no list of instruction sets to pick from.
// ERRORS: 1
// EXPECT: CALX_SIMD_ARCHS is not defined
// EXPECT: calx_simd_dispatch\(<target> SOURCES
#include <calx/simd/dispatch.hpp>

struct kernel {
  template <class Arch>
  int operator()(Arch, int x) const {
    return x;
  }
};

int main() { return calx::simd_dispatch(kernel{})(0); }
