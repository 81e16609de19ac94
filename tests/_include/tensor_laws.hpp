/// @file tests/_include/tensor_laws.hpp
/// @brief The transform laws over the functions of the tensor op table
/// (tests/_include/tensor_table.hpp), each a function template of the table index:
/// jacfwd equals jacrev; vmap and vmap(grad) equal loops over samples; float programs
/// agree with double ones; the Hessian is symmetric and matches central differences of the
/// gradient. The tests tests/tensor.laws.<law>.<part>.cpp run them over part of the table
/// each, a translation unit per part for the compile-time budget (docs/testing.md).
/// (Finite differences and the adjoint identity are in tests/_include/tensor_cases.hpp.)
#ifndef CALX_TESTS_TENSOR_LAWS_HPP
#define CALX_TESTS_TENSOR_LAWS_HPP

#include <_include/tensor_table.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace calx_test::laws {

using calx::tensor;

using X = tensor<double, 3, 4>;

template <std::size_t K>
void check_jacobians() {
  constexpr auto f = std::get<K>(op_table);
  const X x = filled<X>(200 + K, -2.0, 2.0);
  const auto jf = calx::jacfwd(f)(x);
  const auto jr = calx::jacrev(f)(x);
  INFO("function " << K);
  CHECK(max_abs_diff(jf, jr) <= 1e-12 * (1.0 + magnitude(jf)));
}

template <std::size_t K>
void check_vmap() {
  constexpr auto f = std::get<K>(op_table);
  std::vector<X> xs;
  for (unsigned i = 0; i < 11; ++i) xs.push_back(filled<X>(400 + 20 * K + i, -2.0, 2.0));
  const auto ys = calx::vmap(f)(xs);
  const auto gs = calx::vmap(calx::grad(scalar_of<K>))(xs);
  REQUIRE(ys.size() == xs.size());
  INFO("function " << K);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto want = f(xs[i]);
    const decltype(want) y = ys[i];
    CHECK(max_abs_diff(y, want) <= 1e-12 * (1.0 + magnitude(want)));
    const X g = gs[i];
    const X gw = calx::grad(scalar_of<K>)(xs[i]);
    CHECK(max_abs_diff(g, gw) <= 1e-12 * (1.0 + magnitude(gw)));
  }
}

template <std::size_t K>
void check_float_against_double() {
  using XF = tensor<float, 3, 4>;
  const X x = filled<X>(500 + K, -2.0, 2.0);
  XF xf;
  X xd;  // the same numbers, rounded to float first
  for (std::size_t k = 0; k < X::size; ++k) {
    xf[k] = static_cast<float>(x[k]);
    xd[k] = static_cast<double>(xf[k]);
  }
  const XF gf = calx::grad(scalar_of<K>)(xf);
  const X gd = calx::grad(scalar_of<K>)(xd);
  INFO("function " << K);
  // float keeps about 7 digits; a few roundings per op, through programs of ~10 ops.
  for (std::size_t k = 0; k < X::size; ++k) CHECK(double(gf[k]) == Approx(gd[k]).epsilon(2e-4).margin(2e-4 * (1.0 + magnitude(gd))));
}

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

}  // namespace calx_test::laws

#endif  // CALX_TESTS_TENSOR_LAWS_HPP
