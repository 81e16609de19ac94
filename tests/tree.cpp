/// @file tests/tree.cpp
/// @brief calx's tree library (calx/tree.hpp, calx/tree_hana.hpp): Boost.Hana structs and a
/// user's own `calx::tree_node` specialisation as arguments and results of every transform,
/// nested in std containers, against the same function written on flat numbers; the walks
/// themselves (flattening order, rebuilding, rebinding).

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <boost/hana/define_struct.hpp>
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace model {

/// Parameters as users write them: a Hana struct over its number type.
template <class T>
struct params {
  BOOST_HANA_DEFINE_STRUCT(params, (T, a), (std::array<T, 2>, b), (std::pair<T, T>, c));
};

/// A struct of fixed doubles: a result type, but not traceable.
struct fixed {
  BOOST_HANA_DEFINE_STRUCT(fixed, (double, u), (double, v));
};

/// A user's own structure, registered by specialising calx::tree_node.
template <class T>
struct point {
  T x{}, y{};
};

}  // namespace model

template <class T>
struct calx::tree_node<model::point<T>> {
  using children = std::tuple<T, T>;
  template <std::size_t I, class S>
  static constexpr auto& get(S& p) {
    if constexpr (I == 0)
      return p.x;
    else
      return p.y;
  }
  template <template <class> class F>
  using with = model::point<F<T>>;
};

namespace {

using model::params;
using model::point;

/// f(p, x) on a struct, and the same function on its leaves one by one.
constexpr auto loss = [](const auto& p, auto x) {
  return p.a * calx::sin(x) + p.b[0] * p.b[1] * x * x + calx::exp(p.c.first * x) / (1.0 + p.c.second * p.c.second);
};
template <class T>
T loss_flat(T a, T b0, T b1, T c0, T c1, T x) {
  return a * std::sin(x) + b0 * b1 * x * x + std::exp(c0 * x) / (T(1) + c1 * c1);
}
/// Its gradient by hand.
template <class T>
std::array<T, 6> loss_gradient(T a, T b0, T b1, T c0, T c1, T x) {
  const T e = std::exp(c0 * x), d = T(1) + c1 * c1;
  return {std::sin(x),
          b1 * x * x,
          b0 * x * x,
          x * e / d,
          -e * T(2) * c1 / (d * d),
          a * std::cos(x) + T(2) * b0 * b1 * x + c0 * e / d};
}

template <class T>
params<T> sample_params() {
  return params<T>{T(1.5), {T(0.5), T(-2.0)}, {T(0.25), T(0.75)}};
}

template <class T>
void check_gradient(const params<T>& g, const std::array<T, 6>& want, int ulps) {
  CHECK(calx_test::within_ulps(g.a, want[0], ulps));
  CHECK(calx_test::within_ulps(g.b[0], want[1], ulps));
  CHECK(calx_test::within_ulps(g.b[1], want[2], ulps));
  CHECK(calx_test::within_ulps(g.c.first, want[3], ulps));
  CHECK(calx_test::within_ulps(g.c.second, want[4], ulps));
}

TEST_CASE("a Hana struct of numbers rebinds to tracers and back; a fixed one does not", "[tree]") {
  STATIC_REQUIRE(std::is_same_v<calx::detail::rebind_t<params<double>, calx::tracer>, params<calx::tracer>>);
  STATIC_REQUIRE(std::is_same_v<calx::detail::rebind_t<params<calx::tracer>, float>, params<float>>);
  STATIC_REQUIRE(calx::detail::leaf_count_v<params<double>> == 5);
  STATIC_REQUIRE(std::is_same_v<calx::detail::rebind_t<model::fixed, double>, model::fixed>);
  STATIC_REQUIRE(std::is_same_v<calx::detail::rebind_t<model::fixed, calx::tracer>, calx::not_rebindable<model::fixed>>);
  STATIC_REQUIRE(std::is_same_v<calx::detail::rebind_t<std::tuple<point<double>, std::array<params<float>, 3>>, calx::tracer>,
                                std::tuple<point<calx::tracer>, std::array<params<calx::tracer>, 3>>>);
  STATIC_REQUIRE(calx::detail::leaf_count_v<std::tuple<point<double>, std::array<params<float>, 3>>> == 17);
}

TEST_CASE("batch and sample types swap tracer leaves only, tensors stay tensors", "[tree][vmap]") {
  // vmap inside a trace: f sees one sample (sample_tree_t), its per-sample results are typed
  // as batches (batch_tree_t); a tensor among them keeps its type.
  using calx::batch_tracer;
  using calx::tracer;
  using T2 = calx::tensor<double, 2>;
  using calx::detail::batch_tree_t;
  using calx::detail::sample_tree_t;
  STATIC_REQUIRE(std::is_same_v<batch_tree_t<std::tuple<tracer, T2, std::array<tracer, 2>>>,
                                std::tuple<batch_tracer, T2, std::array<batch_tracer, 2>>>);
  STATIC_REQUIRE(std::is_same_v<sample_tree_t<std::pair<batch_tracer, T2>>, std::pair<tracer, T2>>);
  STATIC_REQUIRE(std::is_same_v<sample_tree_t<batch_tree_t<std::pair<tracer, double>>>, std::pair<tracer, double>>);
}

TEST_CASE("flattening walks members in declaration order, depth first", "[tree]") {
  const std::tuple<params<double>, point<double>, double> t{sample_params<double>(), point<double>{7.0, 8.0}, 9.0};
  std::array<double, 8> flat{};
  calx::detail::flatten_into(t, flat.data());
  CHECK(flat == std::array<double, 8>{1.5, 0.5, -2.0, 0.25, 0.75, 7.0, 8.0, 9.0});
  const auto back = calx::detail::unflatten<std::tuple<params<double>, point<double>, double>>(flat);
  CHECK(std::get<0>(back).c.second == 0.75);
  CHECK(std::get<1>(back).y == 8.0);
  CHECK(std::get<2>(back) == 9.0);
}

TEMPLATE_TEST_CASE("grad of a struct is that struct", "[tree][grad]", float, double) {
  using T = TestType;
  const params<T> p = sample_params<T>();
  const T x = T(0.625);
  const auto want = loss_gradient(p.a, p.b[0], p.b[1], p.c.first, p.c.second, x);
  const auto g = calx::grad(loss)(p, x);
  STATIC_REQUIRE(std::is_same_v<decltype(g), const params<T>>);
  check_gradient(g, want, 8);

  const auto [v, both] = calx::value_and_grad(loss, calx::argnums<0, 1>)(p, x);
  CHECK(calx_test::within_ulps(v, loss_flat(p.a, p.b[0], p.b[1], p.c.first, p.c.second, x), 4));
  check_gradient(std::get<0>(both), want, 8);
  CHECK(calx_test::within_ulps(std::get<1>(both), want[5], 8));
}

TEMPLATE_TEST_CASE("vjp and jvp take and return structs", "[tree][vjp][jvp]", float, double) {
  using T = TestType;
  const params<T> p = sample_params<T>();
  const T x = T(-0.375);
  const auto want = loss_gradient(p.a, p.b[0], p.b[1], p.c.first, p.c.second, x);

  const auto [v, pullback] = calx::vjp(loss, p, x);
  const auto [gp, gx] = pullback(T(2));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(gp)>, params<T>>);
  std::array<T, 6> twice{};
  for (std::size_t k = 0; k < 6; ++k) twice[k] = T(2) * want[k];
  check_gradient(gp, twice, 8);
  CHECK(calx_test::within_ulps(gx, twice[5], 8));

  // The tangent along a struct direction is the dot product with the gradient.
  const params<T> dp{T(1), {T(-1), T(0.5)}, {T(2), T(0)}};
  const auto [vj, t] = calx::jvp(loss, std::tuple{p, x}, std::tuple{dp, T(0.25)});
  const T dot = want[0] - want[1] + T(0.5) * want[2] + T(2) * want[3] + T(0.25) * want[5];
  CHECK(calx_test::within_ulps(vj, v, 0));
  CHECK(calx_test::within_ulps(t, dot, 16));
}

/// A function whose result is a struct: the step of gradient descent.
constexpr auto step = [](const auto& p, auto x) {
  auto g = calx::grad(loss)(p, x);
  auto next = p;
  next.a = p.a - 0.125 * g.a;
  next.b = {p.b[0] - 0.125 * g.b[0], p.b[1] - 0.125 * g.b[1]};
  next.c = {p.c.first - 0.125 * g.c.first, p.c.second - 0.125 * g.c.second};
  return next;
};

TEMPLATE_TEST_CASE("a traced function returns a struct; jacfwd of it matches finite differences", "[tree][jvp]", double) {
  using T = TestType;
  const params<T> p = sample_params<T>();
  const T x = T(0.5);
  const params<T> next = calx::trace(step, p, x)(p, x);
  const auto g = loss_gradient(p.a, p.b[0], p.b[1], p.c.first, p.c.second, x);
  CHECK(calx_test::within_ulps(next.a, p.a - T(0.125) * g[0], 8));
  CHECK(calx_test::within_ulps(next.c.second, p.c.second - T(0.125) * g[4], 8));
  // d next / d x by forward mode, against a central difference.
  const auto [v, t] = calx::jvp(step, std::tuple{p, x}, std::tuple{params<T>{}, T(1)});
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(t)>, params<T>>);
  const T h = T(1e-6);
  const params<T> up = calx::trace(step, p, x)(p, x + h), down = calx::trace(step, p, x)(p, x - h);
  CHECK(std::abs(t.a - (up.a - down.a) / (2 * h)) < 1e-7);
  CHECK(std::abs(t.b[1] - (up.b[1] - down.b[1]) / (2 * h)) < 1e-7);
  CHECK(std::abs(t.c.first - (up.c.first - down.c.first) / (2 * h)) < 1e-7);
  CHECK(v.a == next.a);
}

TEMPLATE_TEST_CASE("jacfwd and jacrev of a struct-valued function of a struct nest as JAX does", "[tree][jacobian]", double) {
  using T = TestType;
  // scale(p, x) = p * x, leaf by leaf: d out.leaf_i / d p.leaf_j = x when i == j, else 0.
  constexpr auto scale = [](const auto& p, auto x) {
    auto q = p;
    q.a = p.a * x;
    q.b = {p.b[0] * x, p.b[1] * x};
    q.c = {p.c.first * x, p.c.second * calx::sin(x)};
    return q;
  };
  const params<T> p = sample_params<T>();
  const T x = T(0.75);
  const auto jf = calx::jacfwd(scale)(p, x);
  const auto jr = calx::jacrev(scale)(p, x);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(jf)>, params<params<T>>>);  // output ⊗ input
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(jr)>, params<params<T>>>);
  CHECK(jf.a.a == x);
  CHECK(jf.a.b[0] == 0);
  CHECK(jf.b[1].b[1] == x);
  CHECK(jf.b[1].b[0] == 0);
  CHECK(jf.c.second.c.second == std::sin(x));
  CHECK(jf.c.first.a == 0);
  std::array<T, 25> f{}, r{};
  calx::detail::flatten_into(jf, f.data());
  calx::detail::flatten_into(jr, r.data());
  CHECK(f == r);
  // With respect to x: the output's structure of numbers.
  const params<T> dx = calx::jacfwd(scale, calx::argnums<1>)(p, x);
  CHECK(dx.b[0] == p.b[0]);
  CHECK(calx_test::within_ulps(dx.c.second, p.c.second * std::cos(x), 2));
}

TEMPLATE_TEST_CASE("vmap batches structs: per-sample gradients and broadcast parameters", "[tree][vmap]", float, double) {
  using T = TestType;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{33}}) {
    std::vector<T> xs(n);
    std::vector<params<T>> ps(n);
    for (std::size_t i = 0; i < n; ++i) {
      xs[i] = T(-1) + T(0.0625) * T(i);
      ps[i] = params<T>{T(0.5) + T(0.125) * T(i), {T(1), T(-0.25) * T(i)}, {T(0.01) * T(i), T(1)}};
    }
    // Broadcast parameters, batched inputs: per-sample gradients of the struct.
    const params<T> p = sample_params<T>();
    const auto g = calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0>)(p, xs);
    STATIC_REQUIRE(std::is_same_v<decltype(g), const calx::batched<params<T>>>);
    REQUIRE(g.size() == n);
    // A batch of structs against one grad per sample.
    const auto gs = calx::vmap(calx::grad(loss))(ps, xs);
    REQUIRE(gs.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      check_gradient(g[i], loss_gradient(p.a, p.b[0], p.b[1], p.c.first, p.c.second, xs[i]), 16);
      const params<T> one = calx::grad(loss)(ps[i], xs[i]);
      CHECK(calx_test::within_ulps(gs[i].a, one.a, 4));
      CHECK(calx_test::within_ulps(gs[i].b[1], one.b[1], 4));
      CHECK(calx_test::within_ulps(gs[i].c.first, one.c.first, 4));
    }
    // The gradient of a mean over the batch, with respect to the struct.
    if (n > 0) {
      const auto mean_loss = [](const auto& q, const auto& x) { return calx::mean(calx::vmap(loss, calx::in_axes<calx::none, 0>)(q, x)); };
      const params<T> gm = calx::grad(mean_loss)(p, xs);
      T a = 0;
      for (std::size_t i = 0; i < n; ++i) a += g[i].a;
      CHECK(std::abs(gm.a - a / T(n)) <= T(64) * std::numeric_limits<T>::epsilon() * (std::abs(a) / T(n) + 1));
    }
  }
}

TEMPLATE_TEST_CASE("vmap writes per-sample structs into a batch of structs or a struct of columns", "[tree][vmap]", float, double) {
  using T = TestType;
  const std::size_t n = 21;
  std::vector<T> xs(n);
  for (std::size_t i = 0; i < n; ++i) xs[i] = T(0.1) * T(i) - T(1);
  const params<T> p = sample_params<T>();
  const auto per_sample = calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0>);
  const calx::batched<params<T>> want = per_sample(p, xs);

  std::vector<params<T>> rows(n);
  per_sample.into(rows)(p, xs);
  // A struct of columns: params<std::span<T>>, one column per leaf.
  std::vector<T> a(n), b0(n), b1(n), c0(n), c1(n);
  params<std::span<T>> columns{a, {std::span<T>(b0), std::span<T>(b1)}, {std::span<T>(c0), std::span<T>(c1)}};
  per_sample.into(columns)(p, xs);
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(rows[i].a == want[i].a);
    CHECK(rows[i].c.second == want[i].c.second);
    CHECK(a[i] == want[i].a);
    CHECK(b1[i] == want[i].b[1]);
    CHECK(c0[i] == want[i].c.first);
  }
  std::vector<T> short_column(n - 1);
  params<std::span<T>> wrong{short_column, {std::span<T>(b0), std::span<T>(b1)}, {std::span<T>(c0), std::span<T>(c1)}};
  CHECK_THROWS_WITH(per_sample.into(wrong)(p, xs), Catch::Matchers::Contains("an output buffer has 20 elements for a batch of 21"));
}

TEMPLATE_TEST_CASE("a user's tree_node specialisation works like a built-in structure", "[tree]", float, double) {
  using T = TestType;
  constexpr auto radius = [](const auto& q) { return calx::sqrt(q.x * q.x + q.y * q.y); };
  const point<T> q{T(3), T(4)};
  const point<T> g = calx::grad(radius)(q);
  CHECK(calx_test::within_ulps(g.x, T(0.6), 2));
  CHECK(calx_test::within_ulps(g.y, T(0.8), 2));
  const auto h = calx::hessian(radius)(q);  // JAX's layout: the structure of the structure
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(h)>, point<point<T>>>);
  CHECK(calx_test::within_ulps(h.x.x, T(16) / T(125), 4));
  CHECK(calx_test::within_ulps(h.x.y, T(-12) / T(125), 4));
  CHECK(calx_test::within_ulps(h.y.x, T(-12) / T(125), 4));
  CHECK(calx_test::within_ulps(h.y.y, T(9) / T(125), 4));
}

}  // namespace
