/// @file tests/tensor.laws.cpp
/// @brief The transform laws over every function of the tensor op table
/// (tests/_include/tensor_table.hpp): jacfwd equals jacrev; vmap and vmap(grad) equal
/// loops over samples; float programs agree with double ones. (Finite differences and the
/// adjoint identity are in tests/tensor.cpp, Hessians in tests/tensor.hessian.cpp.)

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
using calx_test::op_table;
using calx_test::op_table_size;
using calx_test::scalar_of;

namespace {

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


}  // namespace

TEST_CASE("jacfwd equals jacrev for every op of the table", "[tensor][laws]") {
  for_table([](auto k) { check_jacobians<decltype(k)::value>(); });
}

TEST_CASE("vmap and vmap(grad) of every op of the table equal loops over samples", "[tensor][laws][vmap]") {
  for_table([](auto k) { check_vmap<decltype(k)::value>(); });
}

TEST_CASE("float gradients of every op of the table agree with double ones", "[tensor][laws]") {
  for_table([](auto k) { check_float_against_double<decltype(k)::value>(); });
}
