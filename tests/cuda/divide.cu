// Division in device code (detail/ops/scalar_math.hpp, `divide`): a * (1/b) where 1/b is a
// normal number, else a / b. Checked inside a __global__ kernel against IEEE division on the
// host, f64 and f32: the edge cases (zeros, infinities, NaN, subnormal and huge divisors,
// results that overflow or underflow) give what a / b gives, and every result, the edge
// cases' and those of random operands over the whole exponent range, is within 2 ulp of it.
// Exits 77 (CTest: skipped) without a GPU.
#include <calx/calx.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

struct divide_t {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    return x / y;
  }
};

template <class T>
using P = decltype(calx::trace(divide_t{}, T(1), T(1)));

template <class T>
__global__ void eval(const T* x, const T* y, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = P<T>{}(x[i], y[i]);
}

/// How many representable numbers apart a and b are (both finite, same sign or zero).
template <class T>
long long ulps_apart(T a, T b) {
  using I = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;
  const auto key = [](T v) {
    I i;
    std::memcpy(&i, &v, sizeof v);
    return i < 0 ? static_cast<long long>(std::numeric_limits<I>::min()) - i : static_cast<long long>(i);
  };
  const long long d = key(a) - key(b);
  return d < 0 ? -d : d;
}

template <class T>
int check(const char* name) {
  using L = std::numeric_limits<T>;
  std::vector<T> x = {1,  -7, L::denorm_min() * 3, T(1e30), 1, 0, 1, -1, 1, L::infinity(), 1, L::quiet_NaN(), 1,
                      3,  L::denorm_min(), L::max(), L::min(), -L::max(), T(0.1), 2};
  std::vector<T> y = {3, T(0.1), L::denorm_min() * 3, L::min(), L::max(), 0, 0, 0, T(-0.0), L::infinity(),
                      L::infinity(), 1, L::quiet_NaN(), L::min(), T(0.5), T(0.5), L::max(), L::min(), T(-0.0),
                      L::denorm_min()};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(L::min_exponent - 1, L::max_exponent - 2);
  for (int k = 0; k < 4000; ++k) {
    x.push_back(static_cast<T>(std::ldexp(mantissa(rng), exponent(rng)) * (k % 3 == 0 ? -1 : 1)));
    y.push_back(static_cast<T>(std::ldexp(mantissa(rng), exponent(rng)) * (k % 5 == 0 ? -1 : 1)));
  }
  const int n = static_cast<int>(x.size());
  T *dx, *dy, *dout;
  calx::detail::cuda_check(cudaMalloc(&dx, n * sizeof(T)), "cudaMalloc");
  calx::detail::cuda_check(cudaMalloc(&dy, n * sizeof(T)), "cudaMalloc");
  calx::detail::cuda_check(cudaMalloc(&dout, n * sizeof(T)), "cudaMalloc");
  calx::detail::cuda_check(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  calx::detail::cuda_check(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  eval<T><<<(n + 255) / 256, 256>>>(dx, dy, dout, n);
  calx::detail::cuda_check(cudaGetLastError(), "eval");
  std::vector<T> out(x.size());
  calx::detail::cuda_check(cudaMemcpy(out.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  int failures = 0;
  long long worst = 0;
  for (int i = 0; i < n; ++i) {
    const T want = x[i] / y[i];
    bool ok;
    if (std::isnan(want) || std::isinf(want) || want == 0 || std::isnan(out[i]) || std::isinf(out[i]))
      ok = (std::isnan(want) && std::isnan(out[i])) || want == out[i];  // the same NaN, infinity or zero
    else
      ok = std::signbit(want) == std::signbit(out[i]) && ulps_apart(out[i], want) <= 2;
    if (ok && std::isfinite(want) && want != 0) worst = std::max(worst, ulps_apart(out[i], want));
    if (!ok && ++failures <= 10)
      std::printf("FAILED: %s: %.17g / %.17g on the device %.17g, on the host %.17g\n", name, double(x[i]),
                  double(y[i]), double(out[i]), double(want));
  }
  std::printf("divide %s: %d of %d quotients differ from IEEE division by more than 2 ulp or at an edge "
              "(largest difference %lld ulp)\n", name, failures, n, worst);
  return failures;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("divide: no CUDA device: skipped\n");
    return 77;  // CTest: skipped
  }
  const int failures = check<double>("f64") + check<float>("f32");
  return failures == 0 ? 0 : 1;
}
