/// @file tests/tensor.hessian.cpp
/// @brief The Hessian of every function of the tensor op table
/// (tests/_include/tensor_table.hpp) is symmetric and matches central differences of the
/// gradient (its own translation unit: these are the largest programs of the tensor tests).

#include <_include/tensor_table.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using calx::tensor;
using calx_test::filled;
using calx_test::for_table;
using calx_test::magnitude;
using calx_test::max_abs_diff;
using calx_test::op_table_size;
using calx_test::scalar_of;

namespace {

using X = tensor<double, 3, 4>;

template <std::size_t K>
void check_hessian() {
  constexpr auto f = scalar_of<K>;
  const X x = filled<X>(300 + K, -2.0, 2.0);
  const auto h = calx::hessian(f)(x);  // tensor<double, 3, 4, 3, 4>
  const double scale = 1.0 + magnitude(h);
  INFO("function " << K);
  for (std::size_t a = 0; a < X::size; ++a)
    for (std::size_t b = 0; b < a; ++b)
      CHECK(std::abs(h.data()[a * X::size + b] - h.data()[b * X::size + a]) <= 1e-10 * scale);
  // Row a of the Hessian is the derivative of the gradient along element a.
  for (std::size_t a = 0; a < X::size; a += 5) {
    X up = x, down = x;
    up[a] += 1e-5;
    down[a] -= 1e-5;
    const X gu = calx::grad(f)(up), gd = calx::grad(f)(down);
    for (std::size_t b = 0; b < X::size; ++b)
      CHECK(h.data()[a * X::size + b] == Approx((gu[b] - gd[b]) / 2e-5).epsilon(1e-5).margin(1e-6 * scale));
  }
}


}  // namespace

TEST_CASE("the Hessian of every op of the table is symmetric and differentiates the gradient", "[tensor][laws]") {
  for_table([](auto k) { check_hessian<decltype(k)::value>(); });
}

