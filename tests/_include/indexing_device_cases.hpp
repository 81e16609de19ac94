/// @file tests/_include/indexing_device_cases.hpp
/// @brief The runtime-index ops (take, segment_sum, dynamic_slice, and scatter_add and
/// dynamic_pad in the gradient) over calx::device_span, the CUDA backend's path: indices
/// shared by every sample (`calx::none`) and per-sample starts (lanes that differ), against
/// the same calls on the host. Run by tests/tensor.indexing.device.cpp with
/// CALX_DEVICE_ON_HOST (the kernels' code serially on the host) and by
/// tests/cuda/indexing_device.cu on a GPU.
#ifndef CALX_TESTS_INDEXING_DEVICE_CASES_HPP
#define CALX_TESTS_INDEXING_DEVICE_CASES_HPP

#include <calx/calx.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace calx_device_test {

constexpr auto indexed = [](const auto& x, const auto& idx, const auto& start) {
  const auto a = calx::take(x, idx);
  const auto b = calx::segment_sum<3>(calx::sin(x), idx);
  return calx::sum(a * a * calx::take(x, 1)) + calx::sum(b * calx::take(a, 0)) +
         calx::sum(calx::tanh(calx::dynamic_slice<2>(x * x, start, calx::axis<1>)));
};

/// `check(name, ok, detail)` for each sample's value and gradient, in precision T.
template <class T, class Check>
void run_indexing(Check& check, calx::detail::stream_handle stream) {
  using X = calx::tensor<T, 4, 3>;
  std::vector<X> xs;
  std::vector<T> starts;
  for (int s = 0; s < 37; ++s) {
    X x;
    for (std::size_t k = 0; k < X::size; ++k) x[k] = static_cast<T>(std::sin(0.3 * s + 0.7 * static_cast<double>(k)));
    xs.push_back(x);
    starts.push_back(static_cast<T>(s % 5 - 2));
  }
  calx::tensor<int, 4> idx;
  idx[0] = 2, idx[1] = -1, idx[2] = 7, idx[3] = 2;
  const calx::device_vector<X> dx{xs};
  const calx::device_vector<T> ds{starts};
  calx::device_vector<calx::tensor<T>> out(xs.size());
  calx::device_vector<X> grads(xs.size());
  calx::device_span<calx::tensor<T>> o(out);
  calx::device_span<X> g(grads);
  constexpr auto axes = calx::in_axes<0, calx::none, 0>;
  calx::vmap(indexed, axes).on(stream).into(o)(calx::device_span<const X>(dx), idx, calx::device_span<const T>(ds));
  calx::vmap(calx::grad(indexed), axes).on(stream).into(g)(calx::device_span<const X>(dx), idx, calx::device_span<const T>(ds));
  const std::vector<calx::tensor<T>> ys = out.to_host();
  const std::vector<X> gs = grads.to_host();
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-12;
  for (std::size_t s = 0; s < xs.size(); ++s) {
    const int start = static_cast<int>(starts[s]);
    const double want = double(indexed(xs[s], idx, start)), got = double(ys[s]);
    check("indexed, sample " + std::to_string(s), std::abs(got - want) <= tol * (1.0 + std::abs(want)),
          std::to_string(got) + " vs " + std::to_string(want));
    const X gw = calx::grad(indexed)(xs[s], idx, start);
    double d = 0;
    for (std::size_t k = 0; k < X::size; ++k) d = std::max(d, std::abs(double(gs[s][k]) - double(gw[k])));
    check("grad(indexed), sample " + std::to_string(s), d <= tol * 10, "largest difference " + std::to_string(d));
  }
}

}  // namespace calx_device_test

#endif  // CALX_TESTS_INDEXING_DEVICE_CASES_HPP
