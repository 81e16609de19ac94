// calx on a GPU: vmap over device memory as a CUDA kernel (docs/cuda.md), per-sample
// gradients, and the gradient of a mean over device samples. Checks every result against
// calx on the host and prints a few. Exits 77 where there is no GPU.
//   nvcc -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I include examples/cuda.cu
#include <calx/calx.hpp>

#include <cmath>
#include <cstdio>
#include <tuple>
#include <vector>

static constexpr auto f = [](auto x, auto y) { return calx::sin(x) * y + x * x; };
static constexpr auto loss = [](auto xs, auto w) {
  return calx::mean(calx::vmap(f, calx::in_axes<0, calx::none>)(xs, w));
};

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  const std::size_t n = 100000;
  std::vector<double> host_x(n), host_y(n);
  for (std::size_t i = 0; i < n; ++i) {
    host_x[i] = -1.0 + 2.0 * static_cast<double>(i) / n;
    host_y[i] = 0.5 + static_cast<double>(i % 7) / 7.0;
  }
  cudaStream_t stream = nullptr;
  calx::detail::cuda_check(cudaStreamCreate(&stream), "cudaStreamCreate");

  // [device_vmap]
  calx::device_vector<double> xs{host_x}, ys{host_y}, out(n);   // cudaMalloc + copies
  calx::vmap(f).on(stream).into(calx::device_span<double>(out))(
      calx::device_span<const double>(xs), calx::device_span<const double>(ys));
  // [device_vmap]

  // [device_grad]
  calx::device_vector<double> dx(n), dy(n);
  calx::vmap(calx::grad(f, calx::argnums<0, 1>))
      .on(stream)
      .into(std::tuple{calx::device_span<double>(dx), calx::device_span<double>(dy)})(
          calx::device_span<const double>(xs), calx::device_span<const double>(ys));
  // [device_grad]
  calx::detail::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");

  // [device_loss]
  auto [l, g] = calx::value_and_grad(loss, calx::argnums<0, 1>)(calx::device_span<const double>(xs), 2.0);
  const auto& [dl_dxs, dl_dw] = g;   // a calx::device_vector<double> and a number
  // [device_loss]

  const auto values = out.to_host(), gx = dx.to_host(), gy = dy.to_host(), gxs = dl_dxs.to_host();
  int wrong = 0;
  double mean = 0, mean_dw = 0, mean_abs = 0, mean_abs_dw = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [wx, wy] = calx::grad(f, calx::argnums<0, 1>)(host_x[i], host_y[i]);
    const auto [v, lg] = calx::value_and_grad(f, calx::argnums<0, 1>)(host_x[i], 2.0);
    mean += v / n;
    mean_dw += std::get<1>(lg) / n;
    mean_abs += std::abs(v) / n;
    mean_abs_dw += std::abs(std::get<1>(lg)) / n;
    const auto close = [](double a, double b) { return std::abs(a - b) <= 1e-12 * (1.0 + std::abs(b)); };
    wrong += !close(values[i], f(host_x[i], host_y[i])) + !close(gx[i], wx) + !close(gy[i], wy) +
             !close(gxs[i], std::get<0>(lg) / n);
  }
  // The device adds the samples in another order than this loop (docs/cuda.md), so a sum is
  // compared relative to the sum of its terms' magnitudes: dloss/dw = mean(sin x) over x
  // symmetric about 0 cancels to 1e-5 of its terms, and its last digits depend on the order.
  if (std::abs(l - mean) > 1e-12 * mean_abs || std::abs(dl_dw - mean_dw) > 1e-12 * mean_abs_dw) {
    std::printf("sums: loss %.17g (host %.17g), dloss/dw %.17g (host %.17g)\n", l, mean, dl_dw, mean_dw);
    ++wrong;
  }
  std::printf("f(x, y) on %zu samples: out[0] %.6f, out[%zu] %.6f\n", n, values[0], n - 1, values[n - 1]);
  std::printf("df/dx[1] %.6f, df/dy[1] %.6f\n", gx[1], gy[1]);
  std::printf("mean loss %.6f, dloss/dw %.6f\n", l, dl_dw);
  std::printf("%d results differ from calx on the host\n", wrong);
  calx::detail::cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return wrong == 0 ? 0 : 1;
}
