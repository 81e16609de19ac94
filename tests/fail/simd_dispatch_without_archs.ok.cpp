// simd_dispatch_without_archs.cpp's fix: the target set up by calx_simd_dispatch, which
// defines CALX_SIMD_ARCHS (here by hand, the baseline alone).
#define CALX_SIMD_ARCHS xsimd::sse2
#include <calx/simd/dispatch.hpp>

struct kernel {
  template <class Arch>
  int operator()(Arch, int x) const {
    return x;
  }
};

int main() { return calx::simd_dispatch(kernel{})(0); }
