// Every differentiation transform once, with the output checked by CTest
// (examples/transforms.out). docs/transforms.md quotes the snippets between the markers.
#include <calx/calx.hpp>

#include <boost/hana/define_struct.hpp>

#include <array>
#include <cstddef>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

// [structures]
template <class T>
struct params {
  BOOST_HANA_DEFINE_STRUCT(params, (T, a), (std::array<T, 2>, b));
};
// [structures]

// [tree_node]
template <class T>
struct point {
  T x, y;
};
template <class T>
struct calx::tree_node<point<T>> {
  using children = std::tuple<T, T>;                          // children's types, in order
  template <std::size_t I, class S>
  static constexpr auto& get(S& p) { if constexpr (I == 0) return p.x; else return p.y; }
  template <template <class> class F>
  using with = point<F<T>>;                                   // the same structure, other leaves
};
// [tree_node]

// [f]
constexpr auto f = [](auto x, auto y) { return calx::sin(x) * y + x * x; };
// [f]

int main() {
  // [grad]
  double dfdx = calx::grad(f)(1.0, 2.0);                                     // df/dx
  auto [gx, gy] = calx::grad(f, calx::argnums<0, 1>)(1.0, 2.0);              // std::tuple
  auto [value, grads] = calx::value_and_grad(f, calx::argnums<0, 1>)(1.0, 2.0);
  // [grad]
  std::printf("grad: %.6f  (%.6f, %.6f)  value %.6f, dy %.6f\n", dfdx, gx, gy, value, std::get<1>(grads));

  // [higher]
  double d2 = calx::grad(calx::grad(f))(1.0, 2.0);                          // d2f/dx2
  auto h = calx::hessian(f, calx::argnums<0, 1>)(1.0, 2.0);                  // H[i][j]
  // [higher]
  std::printf("d2f/dx2 %.6f, H = [[%.6f, %.6f], [%.6f, %.6f]]\n", d2, std::get<0>(std::get<0>(h)),
              std::get<1>(std::get<0>(h)), std::get<0>(std::get<1>(h)), std::get<1>(std::get<1>(h)));

  // [jvp]
  auto [y, tangent] = calx::jvp(f, std::tuple{1.0, 2.0}, std::tuple{1.0, 0.5});
  // y is data: a tangent for x only (argnums), no zero tangent to pass
  auto [yx, tx] = calx::jvp(f, std::tuple{1.0, 2.0}, std::tuple{1.0}, calx::argnums<0>);
  // [jvp]
  std::printf("jvp: value %.6f, tangent %.6f; in x alone %.6f (value %.6f)\n", y, tangent, tx, yx);

  // [vjp]
  auto [y2, pullback] = calx::vjp(f, 1.0, 2.0);
  auto [ctx, cty] = pullback(1.0);  // callable again with other cotangents
  // [vjp]
  std::printf("vjp: value %.6f, cotangents (%.6f, %.6f)\n", y2, ctx, cty);

  // [linearize]
  auto [y3, lin] = calx::linearize(f, 1.0, 2.0);
  double t1 = lin(1.0, 0.0), t2 = lin(0.0, 1.0);  // no re-linearization per call
  auto [y4, lin_x] = calx::linearize(f, calx::argnums<0>, 1.0, 2.0);  // options first
  double t3 = lin_x(1.0);                                              // x's tangent only
  // [linearize]
  std::printf("linearize: value %.6f, J = (%.6f, %.6f); in x alone %.6f (value %.6f)\n", y3, t1, t2, t3, y4);

  // [jacobian]
  constexpr auto polar = [](auto r, auto th) { return std::pair{r * calx::cos(th), r * calx::sin(th)}; };
  auto jf = calx::jacfwd(polar, calx::argnums<0, 1>)(2.0, 0.5);  // pair of (d/dr, d/dth)
  auto jr = calx::jacrev(polar, calx::argnums<0, 1>)(2.0, 0.5);  // the same, by reverse mode
  // [jacobian]
  std::printf("jacfwd: dx = (%.6f, %.6f), dy = (%.6f, %.6f); jacrev agrees: %s\n", std::get<0>(jf.first),
              std::get<1>(jf.first), std::get<0>(jf.second), std::get<1>(jf.second), jf == jr ? "yes" : "no");

  // [aux]
  constexpr auto with_aux = [](auto x) { return std::pair{x * x, calx::sin(x)}; };
  auto [g, aux] = calx::grad(with_aux, calx::has_aux)(3.0);  // aux passes through
  // [aux]
  std::printf("has_aux: grad %.6f, aux %.6f\n", g, aux);

  // [stop_gradient]
  constexpr auto sg = [](auto x) { return x * calx::stop_gradient(x); };
  // [stop_gradient]
  std::printf("stop_gradient: d/dx [x * sg(x)] at 3 = %.6f\n", calx::grad(sg)(3.0));

  {
    // [structures]
    constexpr auto loss = [](const auto& p, auto x) { return p.a * calx::sin(x) + p.b[0] * p.b[1] * x * x; };
    params<double> g = calx::grad(loss)(params<double>{1.5, {0.5, -2.0}}, 0.625);
    // [structures]
    std::printf("grad of a struct: a %.6f, b (%.6f, %.6f)\n", g.a, g.b[0], g.b[1]);
    const params<double> p{1.5, {0.5, -2.0}};
    const std::vector<double> xs{0.25, 0.5};
    // [structures]
    auto per_sample = calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0>)(p, xs);  // per_sample[i] is a params<double>
    // [structures]
    std::printf("per-sample grads: a %.6f, %.6f\n", per_sample[0].a, per_sample[1].a);
    constexpr auto radius = [](const auto& q) { return calx::sqrt(q.x * q.x + q.y * q.y); };
    const point<point<double>> h = calx::hessian(radius)(point<double>{3.0, 4.0});
    std::printf("hessian of |q| at (3, 4): ((%.4f, %.4f), (%.4f, %.4f))\n", h.x.x, h.x.y, h.y.x, h.y.y);
  }

  // [ir]
  std::puts(calx::to_string(calx::trace(calx::grad(f), 1.0, 2.0)).c_str());
  // [ir]
}
