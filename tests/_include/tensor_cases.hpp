/// @file tests/_include/tensor_cases.hpp
/// @brief The cases of tests/tensor.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and includes this):
/// `calx::tensor`: values of every tensor op against loops over elements (f32 and f64,
/// odd shapes, broadcasting corners); the traced program against the untraced function;
/// derivatives of a table of tensor functions against central differences, the adjoint
/// identity, jacfwd == jacrev, Hessian symmetry and vmap against a loop; the IR's size
/// against element counts; struct-of-tensor parameters (issue 9's MLP).
#ifndef CALX_TESTS_TENSOR_CASES_HPP
#define CALX_TESTS_TENSOR_CASES_HPP

#include <_include/ir_inspect.hpp>
#include <_include/tensor_table.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

using calx::tensor;
using calx_test::filled;
using calx_test::max_abs_diff;
using calx_test::op_table;
using calx_test::scalar_of;


// ---- values: each op against a loop -----------------------------------------------------

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("elementwise ops broadcast as NumPy does", "[tensor]", float, double) {
  using T = TestType;
  const auto a = filled<tensor<T, 3, 1, 17>>(1);
  const auto b = filled<tensor<T, 4, 17>>(2);
  const auto c = a * b + T(2);  // [3,1,17] with [4,17] -> [3,4,17]
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(c)>, tensor<T, 3, 4, 17>>);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 17; ++k) CHECK(c(i, j, k) == a(i, 0, k) * b(j, k) + T(2));
  const auto s = calx::sin(a) - calx::exp(calx::reshape<1, 17>(calx::slice<0, 1>(a)));
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 17; ++k) CHECK(s(i, 0, k) == std::sin(a(i, 0, k)) - std::exp(a(0, 0, k)));
  const tensor<T, 1> one = calx::relu(filled<tensor<T, 1>>(3));
  CHECK(one[0] == std::max(T(0), filled<tensor<T, 1>>(3)[0]));
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("reductions over every axis and over one", "[tensor]", float, double) {
  using T = TestType;
  const auto x = filled<tensor<T, 3, 5>>(4);
  T total = 0, big = x[0], small = x[0];
  std::array<T, 5> cols{};
  std::array<T, 3> rows{}, row_max{};
  for (int i = 0; i < 3; ++i) {
    row_max[i] = x(i, 0);
    for (int j = 0; j < 5; ++j) {
      total += x(i, j);
      cols[j] += x(i, j);
      rows[i] += x(i, j);
      big = std::max<T>(big, x(i, j));
      small = std::min<T>(small, x(i, j));
      row_max[i] = std::max<T>(row_max[i], x(i, j));
    }
  }
  CHECK(T(calx::sum(x)) == Approx(total));
  CHECK(T(calx::mean(x)) == Approx(total / 15));
  CHECK(T(calx::max(x)) == big);
  CHECK(T(calx::min(x)) == small);
  const tensor<T, 5> s0 = calx::sum(x, calx::axis<0>);
  const tensor<T, 3> s1 = calx::sum(x, calx::axis<1>);
  const tensor<T, 3> m1 = calx::max(x, calx::axis<1>);
  const tensor<T, 3> a1 = calx::mean(x, calx::axis<1>);
  for (int j = 0; j < 5; ++j) CHECK(s0(j) == Approx(cols[j]));
  for (int i = 0; i < 3; ++i) {
    CHECK(s1(i) == Approx(rows[i]));
    CHECK(m1(i) == row_max[i]);
    CHECK(a1(i) == Approx(rows[i] / 5));
  }
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("contractions, transposes, reshapes, slices, concatenation", "[tensor]", float, double) {
  using T = TestType;
  const auto a = filled<tensor<T, 3, 17>>(5);
  const auto b = filled<tensor<T, 17, 2>>(6);
  const auto v = filled<tensor<T, 17>>(7);
  const auto w = filled<tensor<T, 3>>(8);
  const tensor<T, 3, 2> ab = calx::matmul(a, b);
  const tensor<T, 3> av = calx::matvec(a, v);
  const tensor<T, 3, 17> wv = calx::outer(w, v);
  const tensor<T, 17, 3> at = calx::transpose(a);
  for (int i = 0; i < 3; ++i) {
    T dot_av = 0;
    for (int k = 0; k < 17; ++k) {
      dot_av += a(i, k) * v(k);
      CHECK(wv(i, k) == w(i) * v(k));
      CHECK(at(k, i) == a(i, k));
    }
    CHECK(av(i) == Approx(dot_av));
    for (int j = 0; j < 2; ++j) {
      T s = 0;
      for (int k = 0; k < 17; ++k) s += a(i, k) * b(k, j);
      CHECK(ab(i, j) == Approx(s));
    }
  }
  T vv = 0;
  for (int k = 0; k < 17; ++k) vv += v(k) * v(k);
  CHECK(T(calx::dot(v, v)) == Approx(vv));
  CHECK(T(calx::norm(v)) == Approx(std::sqrt(vv)));
  const tensor<T, 17, 3> r = calx::reshape<17, 3>(a);
  for (std::size_t k = 0; k < 51; ++k) CHECK(r[k] == a[k]);
  const tensor<T, 3, 4> part = calx::slice<2, 6>(a, calx::axis<1>);
  const tensor<T, 17> row1 = calx::take<1>(a);
  const tensor<T, 3> col5 = calx::take<5>(a, calx::axis<1>);
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 4; ++k) CHECK(part(i, k) == a(i, k + 2));
    CHECK(col5(i) == a(i, 5));
  }
  for (int k = 0; k < 17; ++k) CHECK(row1(k) == a(1, k));
  const tensor<T, 6, 17> cat = calx::concatenate(a, a * T(2));
  const tensor<T, 3, 34> cat1 = calx::concatenate(a, a, calx::axis<1>);
  const tensor<T, 2, 3> st = calx::stack(w, w * T(3));
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 17; ++k) {
      CHECK(cat(i, k) == a(i, k));
      CHECK(cat(i + 3, k) == a(i, k) * T(2));
      CHECK(cat1(i, k + 17) == a(i, k));
    }
    CHECK(st(0, i) == w(i));
    CHECK(st(1, i) == w(i) * T(3));
  }
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("softmax, log_softmax and logsumexp are stable", "[tensor]", float, double) {
  using T = TestType;
  tensor<T, 2, 3> x;
  const T big[] = {1000, 1001, 999, -5, 0, 5};
  for (std::size_t k = 0; k < 6; ++k) x[k] = big[k];
  const tensor<T, 2, 3> p = calx::softmax(x, calx::axis<1>);
  const tensor<T, 2, 3> lp = calx::log_softmax(x, calx::axis<1>);
  const tensor<T, 2> lse = calx::logsumexp(x, calx::axis<1>);
  for (int i = 0; i < 2; ++i) {
    const T m = std::max({x(i, 0), x(i, 1), x(i, 2)});
    const T l = m + std::log(std::exp(x(i, 0) - m) + std::exp(x(i, 1) - m) + std::exp(x(i, 2) - m));
    CHECK(lse(i) == Approx(l));
    for (int j = 0; j < 3; ++j) {
      CHECK(p(i, j) == Approx(std::exp(x(i, j) - l)));
      CHECK(lp(i, j) == Approx(x(i, j) - l));
    }
  }
  tensor<T, 3> minus_inf;
  for (std::size_t k = 0; k < 3; ++k) minus_inf[k] = -std::numeric_limits<T>::infinity();
  CHECK(T(calx::logsumexp(minus_inf)) == -std::numeric_limits<T>::infinity());  // as JAX: -inf, not NaN
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("elements read and write; a default tensor is zeros", "[tensor]") {
  tensor<double, 2, 3> t;
  for (std::size_t k = 0; k < t.size; ++k) CHECK(t[k] == 0.0);
  t(1, 2) = 4.0;
  t(0, 1) += 1.5;
  CHECK(t.data()[5] == 4.0);
  CHECK(t.data()[1] == 1.5);
  CHECK(double(t(1, 2)) == 4.0);
  STATIC_REQUIRE(tensor<double, 2, 3>::shape == std::array<std::size_t, 2>{2, 3});
  STATIC_REQUIRE(tensor<float, 4, 1, 2>::rank == 3);
}
#endif

// ---- the traced program against the function on numbers --------------------------------

namespace {
template <class X>
bool runs_as_traced() {
  const X x = filled<X>(11, -2.0, 2.0);
  bool ok = true;
  std::apply(
      [&](const auto&... f) {
        const auto one = [&](const auto& g) {
          const auto want = g(x);
          const auto got = calx::trace(g, x)(x);
          const double tol = std::is_same_v<typename X::value_type, float> ? 1e-5 : 1e-12;
          const bool same = max_abs_diff(got, want) <= tol * (1.0 + max_abs_diff(want, decltype(want){}));
          if (!same) UNSCOPED_INFO("an op of the table differs traced: " << max_abs_diff(got, want));
          ok = ok && same;
        };
        (one(f), ...);
      },
      op_table);
  return ok;
}
}  // namespace

#if CALX_TEST_PART == 1
TEST_CASE("every op of the table computes the same traced as on numbers", "[tensor]") {
  CHECK(runs_as_traced<tensor<double, 3, 4>>());
  CHECK(runs_as_traced<tensor<float, 3, 4>>());
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("prod over every axis and over one, odd and even extents", "[tensor][prod]", float, double) {
  using T = TestType;
  const auto x = filled<tensor<T, 3, 17>>(9, 0.5, 1.5);
  T all = 1;
  std::array<T, 3> rows{1, 1, 1};
  std::array<T, 17> cols{};
  cols.fill(1);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 17; ++j) {
      all *= x(i, j);
      rows[i] *= x(i, j);
      cols[j] *= x(i, j);
    }
  CHECK(T(calx::prod(x)) == Approx(all).epsilon(1e-5));
  const tensor<T, 3> p1 = calx::prod(x, calx::axis<1>);
  const tensor<T, 17> p0 = calx::prod(x, calx::axis<0>);
  for (int i = 0; i < 3; ++i) CHECK(p1(i) == Approx(rows[i]).epsilon(1e-5));
  for (int j = 0; j < 17; ++j) CHECK(p0(j) == Approx(cols[j]).epsilon(1e-5));
  CHECK(T(calx::prod(tensor<T, 1>(filled<tensor<T, 1>>(3)))) == filled<tensor<T, 1>>(3)[0]);
}
#endif

#if CALX_TEST_PART == 1
TEST_CASE("the derivative of prod is the product of the others, exact at zeros, at every order", "[tensor][prod][grad]") {
  using X = tensor<double, 5>;
  X x = filled<X>(12, 0.5, 2.0);
  x[2] = 0.0;  // one zero factor: only its own derivative is non-zero
  constexpr auto f = [](const auto& v) { return calx::prod(v); };
  const X g = calx::grad(f)(x);
  for (std::size_t k = 0; k < X::size; ++k) {
    double others = 1;
    for (std::size_t j = 0; j < X::size; ++j)
      if (j != k) others *= x[j];
    CHECK(g[k] == Approx(others).epsilon(1e-14));
  }
  // d2/dxk dxj = the product of the elements other than k and j (0 on the diagonal).
  const tensor<double, 5, 5> h = calx::hessian(f)(x);
  for (std::size_t k = 0; k < X::size; ++k)
    for (std::size_t j = 0; j < X::size; ++j) {
      double others = k == j ? 0.0 : 1.0;
      for (std::size_t i = 0; i < X::size && k != j; ++i)
        if (i != k && i != j) others *= x[i];
      INFO("h(" << k << ", " << j << ")");
      CHECK(h(k, j) == Approx(others).epsilon(1e-14).margin(1e-300));
    }
  // The IR grows with log2 of the extent, not with it.
  using small = decltype(calx::trace(calx::grad(f), tensor<double, 4>{}));
  using large = decltype(calx::trace(calx::grad(f), tensor<double, 1024>{}));
  STATIC_REQUIRE(std::remove_cvref_t<decltype(large::ir)>::size < 6 * std::remove_cvref_t<decltype(small::ir)>::size);
}
#endif

#if CALX_TEST_PART == 2
TEST_CASE("user ops apply to tensors elementwise, broadcast, under every transform", "[tensor][user]") {
  using X = tensor<double, 3, 4>;
  const X x = filled<X>(13, -2.0, 2.0);
  const tensor<double, 4> y = filled<tensor<double, 4>>(14, -2.0, 2.0);
  // softplus: a decomposition only; logaddexp: its own kernel and vjp (a row broadcast).
  constexpr auto f = [](const auto& a, const auto& b) { return calx::sum(user::softplus(a) * user::logaddexp(a, b)); };
  constexpr auto r = [](const auto& a, const auto& b) {
    return calx::sum(calx::log1p(calx::exp(a)) * (calx::max(a, b) + calx::log1p(calx::exp(-calx::abs(a - b)))));
  };
  CHECK(double(f(x, y)) == Approx(double(r(x, y))).epsilon(1e-14));
  const auto [gx, gy] = calx::grad(f, calx::argnums<0, 1>)(x, y);
  const auto [rx, ry] = calx::grad(r, calx::argnums<0, 1>)(x, y);
  CHECK(max_abs_diff(gx, rx) < 1e-12);
  CHECK(max_abs_diff(gy, ry) < 1e-12);
  const auto h = calx::hessian(f)(x, y);  // through softplus's decomposition and logaddexp's vjp
  const auto hr = calx::hessian(r)(x, y);
  CHECK(max_abs_diff(h, hr) < 1e-10);
  CHECK(calx::to_string(calx::trace(f, x, y)).find("logaddexp") != std::string::npos);  // one node
  std::vector<X> xs{x, filled<X>(15), filled<X>(16)};
  const auto gs = calx::vmap(calx::grad(f), calx::in_axes<0, calx::none>)(xs, y);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const X gi = gs[i];
    CHECK(max_abs_diff(gi, calx::grad(r)(xs[i], y)) < 1e-12);
  }
}
#endif

// ---- derivatives ---------------------------------------------------------------------------

namespace {

template <std::size_t K>
void check_gradient_against_differences() {
  using X = tensor<double, 3, 4>;
  const X x = filled<X>(20 + K, -2.0, 2.0);
  constexpr auto f = scalar_of<K>;
  const X g = calx::grad(f)(x);
  for (std::size_t k = 0; k < X::size; ++k) {
    X up = x, down = x;
    const double h = 1e-6;
    up[k] += h;
    down[k] -= h;
    const double fd = (double(f(up)) - double(f(down))) / (2 * h);
    INFO("function " << K << ", element " << k);
    CHECK(g[k] == Approx(fd).epsilon(1e-6).margin(1e-7));
  }
  // The adjoint identity: <ct, J t> (forward mode) == <J^T ct, t> (reverse mode).
  const X t = filled<X>(40 + K);
  constexpr auto vector_f = std::get<K>(op_table);
  const auto [y, jt] = calx::jvp(vector_f, std::tuple{x}, std::tuple{t});
  using Y = std::remove_cvref_t<decltype(y)>;
  const Y ct = filled<Y>(60 + K);
  const auto [y2, pullback] = calx::vjp(vector_f, x);
  const X jct = std::get<0>(pullback(ct));
  double left = 0, right = 0;
  for (std::size_t k = 0; k < Y::size; ++k) left += ct[k] * jt[k];
  for (std::size_t k = 0; k < X::size; ++k) right += jct[k] * t[k];
  INFO("function " << K);
  CHECK(left == Approx(right).epsilon(1e-10));
  CHECK(max_abs_diff(y, y2) == 0.0);
}

}  // namespace

#if CALX_TEST_PART == 3  // the table's first half; its second half is part 7
TEST_CASE("gradients of the table match central differences; jvp and vjp are adjoint (part 1 of 2)", "[tensor][grad]") {
  calx_test::for_table_part<0, 2>([](auto k) { check_gradient_against_differences<decltype(k)::value>(); });
}
#endif

#if CALX_TEST_PART == 7
TEST_CASE("gradients of the table match central differences; jvp and vjp are adjoint (part 2 of 2)", "[tensor][grad]") {
  calx_test::for_table_part<1, 2>([](auto k) { check_gradient_against_differences<decltype(k)::value>(); });
}
#endif

#if CALX_TEST_PART == 4
TEST_CASE("jacfwd equals jacrev, in JAX's layout (output axes, then input axes)", "[tensor][jacobian]") {
  using X = tensor<double, 3, 2>;
  constexpr auto f = [](const auto& x) { return calx::matvec(calx::transpose(x), calx::tanh(calx::take<0>(x, calx::axis<1>))); };
  const X x = filled<X>(70);
  const auto jf = calx::jacfwd(f)(x);
  const auto jr = calx::jacrev(f)(x);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(jf)>, tensor<double, 2, 3, 2>>);
  CHECK(max_abs_diff(jf, jr) < 1e-14);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      X up = x, down = x;
      up(i, j) += 1e-6;
      down(i, j) -= 1e-6;
      const tensor<double, 2> d = (f(up) - f(down)) / 2e-6;
      for (std::size_t o = 0; o < 2; ++o) CHECK(jf(o, i, j) == Approx(d(o)).epsilon(1e-6));
    }
}
#endif

#if CALX_TEST_PART == 5
TEST_CASE("the Hessian of a tensor function is symmetric and matches differences of gradients", "[tensor][hessian]") {
  using X = tensor<double, 4>;
  constexpr auto f = [](const auto& x) { return calx::logsumexp(x * x) + calx::dot(x, calx::sin(x)); };
  const X x = filled<X>(71);
  const tensor<double, 4, 4> h = calx::hessian(f)(x);
  for (std::size_t i = 0; i < 4; ++i) {
    X up = x, down = x;
    up(i) += 1e-5;
    down(i) -= 1e-5;
    const X gu = calx::grad(f)(up), gd = calx::grad(f)(down);
    for (std::size_t j = 0; j < 4; ++j) {
      CHECK(h(i, j) == Approx(h(j, i)).epsilon(1e-12));
      CHECK(h(i, j) == Approx((gu(j) - gd(j)) / 2e-5).epsilon(1e-5).margin(1e-8));
    }
  }
}
#endif

#if CALX_TEST_PART == 5
TEST_CASE("max and min share the derivative among ties, as JAX does", "[tensor][grad]") {
  tensor<double, 4> x;
  const double v[] = {1.0, 3.0, 3.0, -2.0};
  for (std::size_t k = 0; k < 4; ++k) x[k] = v[k];
  const tensor<double, 4> g = calx::grad([](const auto& t) { return calx::max(t); })(x);
  CHECK(g(0) == 0.0);
  CHECK(g(1) == 0.5);
  CHECK(g(2) == 0.5);
  CHECK(g(3) == 0.0);
}
#endif

namespace {
constexpr auto scaled_softmax = [](const auto& x, const auto& s) { return calx::softmax(x * s); };
constexpr auto softmax_loss = [](const auto& x, const auto& s) { return calx::sum(scaled_softmax(x, s) * x); };
}  // namespace

#if CALX_TEST_PART == 6
TEST_CASE("vmap of a tensor function equals a loop over samples", "[tensor][vmap]") {
  using X = tensor<float, 5>;
  constexpr auto f = scaled_softmax;
  std::vector<X> xs;
  std::vector<float> ss;
  for (unsigned i = 0; i < 37; ++i) {
    xs.push_back(filled<X>(100 + i));
    ss.push_back(0.5f + 0.1f * static_cast<float>(i));
  }
  const auto ys = calx::vmap(f)(xs, ss);
  REQUIRE(ys.size() == xs.size());
  const auto gs = calx::vmap(calx::grad(softmax_loss))(xs, ss);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const X y = ys[i];
    CHECK(max_abs_diff(y, f(xs[i], ss[i])) < 1e-6);
    const X g = gs[i];
    const X want = calx::grad(softmax_loss)(xs[i], ss[i]);
    CHECK(max_abs_diff(g, want) < 1e-6);
  }
}
#endif

// ---- the IR grows with the program, not with the shapes ----------------------------------

namespace {
constexpr auto least_squares = [](const auto& a, const auto& x, const auto& b) {
  const auto r = calx::matvec(a, x) - b;
  return calx::dot(r, r) + calx::logsumexp(x);
};

template <std::size_t N>
constexpr std::size_t gradient_nodes() {
  using P = decltype(calx::trace(calx::grad(least_squares, calx::argnums<0, 1>), tensor<double, N, N>{},
                                 tensor<double, N>{}, tensor<double, N>{}));
  return std::remove_cvref_t<decltype(P::ir)>::size;
}
}  // namespace

#if CALX_TEST_PART == 6
TEST_CASE("a program's IR has as many nodes for 4 elements as for 4096", "[tensor][ir]") {
  // Tracing at 4096 x 4096 (16.8 million elements) compiles in the time of 4 x 4: nothing
  // at compile time walks elements (docs/performance.md, "Tensors").
  STATIC_REQUIRE(gradient_nodes<4>() == gradient_nodes<4096>());
  STATIC_REQUIRE(gradient_nodes<4>() < 40);
}
#endif

#if CALX_TEST_PART == 6
TEST_CASE("a program has one input and one output per value, whatever its size", "[tensor][ir]") {
  using P = decltype(calx::trace(calx::grad(least_squares, calx::argnums<0, 1>), tensor<double, 64, 64>{},
                                 tensor<double, 64>{}, tensor<double, 64>{}));
  using IR = std::remove_cvref_t<decltype(P::ir)>;
  STATIC_REQUIRE(IR::input_leaves == 3);        // a, x, b
  STATIC_REQUIRE(IR::output_leaves == 2);       // the gradients of a and x
  STATIC_REQUIRE(IR::input_count == 64 * 64 + 2 * 64);  // the call layer's flat positions
  STATIC_REQUIRE(IR::output_count == 64 * 64 + 64);
  STATIC_REQUIRE(P::ir.input_offset[1] == 64 * 64);
  STATIC_REQUIRE(P::ir.output_offset[1] == 64 * 64);
}
#endif

#if CALX_TEST_PART == 6
TEST_CASE("large tensors are read and written in place", "[tensor][grad]") {
  // A 1024 x 1024 matrix is 8 MiB: a copy of the arguments on the stack (as calx made before
  // reading them in place) overflows a default 8 MiB stack; the gradient of `a` at 512 x 512
  // needs 2 MiB of registers, which go on the heap.
  constexpr std::size_t n = 1024, m = 512;
  const auto a = std::make_unique<tensor<double, n, n>>();
  const auto am = std::make_unique<tensor<double, m, m>>();
  tensor<double, n> x, b;
  for (std::size_t i = 0; i < n; ++i) {
    x(i) = 1.0 / static_cast<double>(i + 1);
    b(i) = std::cos(static_cast<double>(i));
    for (std::size_t j = 0; j < n; ++j) (*a)(i, j) = std::sin(static_cast<double>(i * n + j));
  }
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) (*am)(i, j) = (*a)(i, j);
  constexpr auto f = [](const auto& a, const auto& x, const auto& b) {
    const auto r = calx::matvec(a, x) - b;
    return calx::dot(r, r);
  };
  // The gradient in x is 2 aᵀ (a x - b); in a, 2 (a x - b) xᵀ. `size`: the leading block.
  auto residual = [&](const auto& mat, std::size_t size) {
    std::vector<double> r(size);
    for (std::size_t i = 0; i < size; ++i) {
      r[i] = -b(i);
      for (std::size_t j = 0; j < size; ++j) r[i] += mat(i, j) * x(j);
    }
    return r;
  };
  const tensor<double, n> gx = calx::grad(f, calx::argnums<1>)(*a, x, b);
  const std::vector<double> r = residual(*a, n);
  double err = 0, scale = 0;
  for (std::size_t j = 0; j < n; ++j) {
    double want = 0;
    for (std::size_t i = 0; i < n; ++i) want += 2 * (*a)(i, j) * r[i];
    err = std::max(err, std::abs(gx(j) - want));
    scale = std::max(scale, std::abs(want));
  }
  CHECK(err <= 1e-12 * scale);
  const tensor<double, m> xm = calx::slice<0, m>(x), bm = calx::slice<0, m>(b);
  const auto ga = std::make_unique<tensor<double, m, m>>(calx::grad(f)(*am, xm, bm));
  const std::vector<double> rm = residual(*am, m);
  err = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) err = std::max(err, std::abs((*ga)(i, j) - 2 * rm[i] * xm(j)));
  CHECK(err <= 1e-12);

  // linearize keeps `a` (8 MiB) as a residual: on the heap, not in the linear map's object.
  const auto ta = std::make_unique<tensor<double, n, n>>();
  tensor<double, n> tx, tb;
  for (std::size_t i = 0; i < n; ++i) {
    tx(i) = std::sin(static_cast<double>(i));
    tb(i) = 0.5;
    for (std::size_t j = 0; j < n; ++j) (*ta)(i, j) = i == j ? 1.0 : 0.0;
  }
  const auto [value, lin] = calx::linearize(f, *a, x, b);
  double want_value = 0, want_tangent = 0;  // |r|^2 and 2 r . (ta x + a tx - tb)
  for (std::size_t i = 0; i < n; ++i) {
    double d = (*ta)(i, i) * x(i) - tb(i);
    for (std::size_t j = 0; j < n; ++j) d += (*a)(i, j) * tx(j);
    want_value += r[i] * r[i];
    want_tangent += 2 * r[i] * d;
  }
  CHECK(value == Approx(want_value).epsilon(1e-12));
  CHECK(lin(*ta, tx, tb) == Approx(want_tangent).epsilon(1e-12));

  // vjp at 512 x 512: the pullback keeps `am`; its cotangents are returned in place.
  const auto [value_m, pullback] = calx::vjp(f, *am, xm, bm);
  const auto cts = std::make_unique<std::tuple<tensor<double, m, m>, tensor<double, m>, tensor<double, m>>>(pullback(tensor<double>(1.0)));
  err = 0;
  for (std::size_t i = 0; i < m; ++i) {
    err = std::max(err, std::abs(std::get<2>(*cts)(i) + 2 * rm[i]));
    for (std::size_t j = 0; j < m; ++j) err = std::max(err, std::abs(std::get<0>(*cts)(i, j) - (*ga)(i, j)));
  }
  CHECK(err <= 1e-12);
  CHECK(value_m > 0);
}
#endif

#if CALX_TEST_PART == 6
TEST_CASE("to_string prints tensor types and attributes", "[tensor][to_string]") {
  const std::string s = calx::to_string(calx::trace(
      [](const auto& w, const auto& x) { return calx::sum(calx::tanh(calx::matvec(w, x)), calx::axis<0>); },
      tensor<float, 32, 16>{}, tensor<float, 16>{}));
  CHECK(s ==
        "{ lambda a:f32[32,16] b:f32[16] . let\n"
        "    c:f32[32] = tensordot[contract=1] a b\n"
        "    d:f32[32] = tanh c\n"
        "    e:f32 = reduce_sum[axis=0] d\n"
        "  in (e) }");
}
#endif

// ---- structures of tensors: issue 9's MLP -------------------------------------------------

struct mlp {
  BOOST_HANA_DEFINE_STRUCT(mlp, (calx::tensor<float, 32, 16>, w1), (calx::tensor<float, 32>, b1),
                           (calx::tensor<float, 1, 32>, w2), (calx::tensor<float, 1>, b2));
};

#if CALX_TEST_PART == 6  // the helpers of part 6 only (unused functions warn elsewhere)
namespace {
constexpr auto loss = [](const auto& p, const auto& x, const auto& y) {
  auto h = calx::tanh(calx::matvec(p.w1, x) + p.b1);
  auto d = (calx::matvec(p.w2, h) + p.b2)(0) - y;
  return d * d;
};

/// The MLP's gradient written out by hand (chain rule).
mlp hand_gradient(const mlp& p, const tensor<float, 16>& x, float y) {
  mlp g;
  float h[32], out = p.b2[0];
  for (int i = 0; i < 32; ++i) {
    float z = p.b1[static_cast<std::size_t>(i)];
    for (int j = 0; j < 16; ++j) z += p.w1(i, j) * x(j);
    h[i] = std::tanh(z);
    out += p.w2(0, i) * h[i];
  }
  const float d = 2 * (out - y);
  g.b2(0) = d;
  for (int i = 0; i < 32; ++i) {
    g.w2(0, i) = d * h[i];
    const float dz = d * p.w2(0, i) * (1 - h[i] * h[i]);
    g.b1(i) = dz;
    for (int j = 0; j < 16; ++j) g.w1(i, j) = dz * x(j);
  }
  return g;
}

float max_diff(const mlp& a, const mlp& b) {
  return static_cast<float>(std::max({max_abs_diff(a.w1, b.w1), max_abs_diff(a.b1, b.b1), max_abs_diff(a.w2, b.w2),
                                      max_abs_diff(a.b2, b.b2)}));
}
}  // namespace
#endif

#if CALX_TEST_PART == 6
TEST_CASE("the gradient of a struct of tensors is that struct; per-sample gradients by vmap", "[tensor][tree]") {
  const mlp params{filled<tensor<float, 32, 16>>(1, -0.5, 0.5), filled<tensor<float, 32>>(2, -0.5, 0.5),
                   filled<tensor<float, 1, 32>>(3, -0.5, 0.5), filled<tensor<float, 1>>(4)};
  std::vector<tensor<float, 16>> xs;
  std::vector<float> ys;
  for (unsigned i = 0; i < 45; ++i) {
    xs.push_back(filled<tensor<float, 16>>(200 + i));
    ys.push_back(static_cast<float>(i % 7) * 0.1f - 0.3f);
  }
  const mlp g1 = calx::grad(loss)(params, xs[0], ys[0]);
  CHECK(max_diff(g1, hand_gradient(params, xs[0], ys[0])) < 1e-5f);
  const auto g = calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0, 0>)(params, xs, ys);
  REQUIRE(g.size() == xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const mlp gi = g[i];
    // vmap's lanes add a contraction's terms in order; grad on numbers runs the xsimd
    // kernels (detail/tensor/contraction.hpp), which group the 16 and 32 terms of its dot
    // products differently: the two agree within a few roundings of those sums (about 1e-6
    // here), as each agrees with the hand gradient within 1e-5.
    const float diff = max_diff(gi, calx::grad(loss)(params, xs[i], ys[i]));
    INFO("sample " << i << ": vmap(grad) and grad differ by " << diff);
    CHECK(diff < 1e-5f);
  }
}
#endif

#endif  // CALX_TESTS_TENSOR_CASES_HPP
