/// @file tests/tensor_op.user.device.cpp
/// @brief A user tensor op on the CUDA backend's path, with CALX_DEVICE_ON_HOST (device code
/// run serially on the host, as tests/vmap.device.cpp): device code runs the op's
/// decomposition (a kernel on whole tensors is a host function), and agrees with the host.
#define CALX_DEVICE_ON_HOST 1

#include <_include/user_tensor_ops.hpp>

#include <catch2/catch.hpp>

#include <vector>

using namespace tensor_op_test;

TEST_CASE("a user tensor op with a decomposition runs in device code", "[tensor_op][user][device]") {
  std::vector<vec8> xs;
  for (int s = 0; s < 37; ++s) xs.push_back(sample8(0.05 * s));
  vec3 k;
  k[0] = 0.25, k[1] = 1.0, k[2] = -0.5;
  const calx::device_vector<vec8> dx{xs};
  calx::device_vector<calx::tensor<double>> out(xs.size());
  calx::device_vector<vec8> grads(xs.size());
  calx::device_span<calx::tensor<double>> o(out);
  calx::device_span<vec8> g(grads);
  calx::vmap(with_conv, calx::in_axes<0, calx::none>).into(o)(calx::device_span<const vec8>(dx), k);
  calx::vmap(calx::grad(with_conv), calx::in_axes<0, calx::none>).into(g)(calx::device_span<const vec8>(dx), k);
  const std::vector<calx::tensor<double>> ys = out.to_host();
  const std::vector<vec8> gs = grads.to_host();
  for (std::size_t s = 0; s < xs.size(); ++s) {
    INFO("sample " << s);
    CHECK(double(ys[s]) == Approx(double(with_conv_builtin(xs[s], k))).epsilon(1e-13));
    CHECK(max_diff(gs[s], calx::grad(with_conv_builtin)(xs[s], k)) <= 1e-12);
  }
}
