// The transforms that never run a program over a runtime batch include no executor (issue 25,
// item 6): jacfwd, jacrev, hessian, vjp, linearize, the custom rules, control flow, tensors
// and the IR printer bring neither the SIMD executor nor the device one, nor <thread>.
// grad, value_and_grad, jvp, vmap and program do (they take runtime batches).
#include <calx/checkpoint.hpp>
#include <calx/cond.hpp>
#include <calx/custom_jvp.hpp>
#include <calx/custom_vjp.hpp>
#include <calx/fori_loop.hpp>
#include <calx/hessian.hpp>
#include <calx/jacfwd.hpp>
#include <calx/jacrev.hpp>
#include <calx/linearize.hpp>
#include <calx/math.hpp>
#include <calx/reduce.hpp>
#include <calx/scan.hpp>
#include <calx/switch.hpp>
#include <calx/tensor.hpp>
#include <calx/to_string.hpp>
#include <calx/vjp.hpp>
#include <calx/while_loop.hpp>

#if defined(CALX_DETAIL_EXEC_SIMD_EXECUTOR_HPP) || defined(CALX_DETAIL_EXEC_DEVICE_EXECUTOR_HPP) || \
    defined(CALX_DETAIL_CALL_BATCHED_CALL_HPP) || defined(_GLIBCXX_THREAD)
#error "a header of a transform that takes no runtime batch includes an executor"
#endif

#include <cmath>
#include <cstdio>

int main() {
  constexpr auto f = [](auto x) { return calx::sin(x) * x; };
  const double d1 = calx::jacfwd(f)(0.5), d2 = calx::hessian(f)(0.5), r = calx::jacrev(f)(0.5);
  const double e1 = std::cos(0.5) * 0.5 + std::sin(0.5), e2 = 2 * std::cos(0.5) - std::sin(0.5) * 0.5;
  const bool ok = std::abs(d1 - e1) < 1e-15 && std::abs(r - e1) < 1e-15 && std::abs(d2 - e2) < 1e-14;
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
