// Tensors and structures of tensors, with the output checked by CTest (examples/tensors.out).
// docs/tensors.md quotes the snippets between the markers.
#include <calx/calx.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

// [mlp]
struct mlp {
  BOOST_HANA_DEFINE_STRUCT(mlp,
    (calx::tensor<float, 32, 16>, w1), (calx::tensor<float, 32>, b1),
    (calx::tensor<float, 1, 32>, w2), (calx::tensor<float, 1>, b2));
};
constexpr auto loss = [](const auto& p, const auto& x, const auto& y) {
  auto h = calx::tanh(calx::matvec(p.w1, x) + p.b1);
  auto d = (calx::matvec(p.w2, h) + p.b2)(0) - y;
  return d * d;
};
// [mlp]

// [f]
constexpr auto f = [](const auto& a, const auto& x) {
  auto r = calx::matvec(a, x) - 1.0;          // a tensor<double, 2>
  return calx::sum(r * r) + calx::logsumexp(x);  // a rank-0 tensor
};
// [f]

int main() {
  // [values]
  calx::tensor<double, 2, 3> a;               // zeros
  a(0, 0) = 1.0;                              // element access, row major
  a(1, 2) = 2.0;
  calx::tensor<double, 3> x;
  for (std::size_t k = 0; k < x.size; ++k) x[k] = 0.5 * static_cast<double>(k);
  double v = f(a, x);                         // runs on numbers, untransformed
  // [values]
  std::printf("f(a, x) = %.6f, a.data()[5] = %.1f, shape %zu x %zu\n", v, a.data()[5], a.shape[0], a.shape[1]);

  // [grad]
  auto [ga, gx] = calx::grad(f, calx::argnums<0, 1>)(a, x);   // tensor<double, 2, 3>, tensor<double, 3>
  calx::tensor<double, 2, 3, 3> j = calx::jacfwd([](const auto& a, const auto& x) {
    return calx::outer(calx::matvec(a, x), x);
  }, calx::argnums<1>)(a, x);                                 // d/dx: output axes, then x's axes
  // [grad]
  std::printf("df/da(1, 2) = %.6f, df/dx(2) = %.6f, J(1, 2, 0) = %.6f\n", double(ga(1, 2)), double(gx(2)),
              double(j(1, 2, 0)));

  // [ops]
  calx::tensor<double, 2, 3> p = calx::softmax(a, calx::axis<1>);          // rows sum to 1
  calx::tensor<double, 3> colmax = calx::max(a, calx::axis<0>);           // one axis reduced
  calx::tensor<double, 4, 3> both = calx::concatenate(a, a * 2.0);          // along axis 0
  calx::tensor<double, 3> row = calx::take<1>(a);                         // a[1]
  calx::tensor<double, 2, 2> left = calx::slice<0, 2>(a, calx::axis<1>);  // a[:, 0:2]
  calx::tensor<double, 2, 3> masked = calx::where(a > 0.5, a, -a);       // broadcasting scalars
  // [ops]
  std::printf("softmax row 0 sums to %.6f; colmax(2) = %.1f; both(3, 2) = %.1f; row(2) = %.1f; left(0, 0) = %.1f; "
              "masked(0, 1) = %.1f\n",
              double(p(0, 0)) + double(p(0, 1)) + double(p(0, 2)), double(colmax(2)), double(both(3, 2)),
              double(row(2)), double(left(0, 0)), double(masked(0, 1)));

  calx::tensor<double, 544, 3> vertices;
  calx::tensor<int, 100> idx;
  for (std::size_t k = 0; k < vertices.size; ++k) vertices[k] = 0.001 * static_cast<double>(k);
  for (std::size_t k = 0; k < idx.size; ++k) idx[k] = static_cast<int>((37 * k) % 544);
  idx[1] = -1;  // the last vertex (JAX's rule: from the end)
  // [indexing]
  constexpr auto skin = [](const auto& vertices, const auto& idx) {  // tensor<double, 544, 3>, tensor<int, 100>
    return calx::take(vertices, idx);                                  // tensor<double, 100, 3>
  };
  calx::tensor<double, 100, 3> picked = skin(vertices, idx);          // numbers, or traced: one program for every idx
  auto counts = calx::grad([](const auto& v, const auto& i) { return calx::sum(calx::take(v, i)); })(vertices, idx);
  // [indexing]
  std::printf("picked(1, 2) = %.3f (vertex 543); the gradient counts the times a row is taken: row 0 %.0f, row 1 %.0f, "
              "row 543 %.0f\n", double(picked(1, 2)), double(counts(0, 0)), double(counts(1, 0)), double(counts(543, 2)));

  // [per_sample]
  mlp params;                                                  // zeros: set some weights
  for (std::size_t k = 0; k < params.w1.size; ++k) params.w1[k] = 0.01f * static_cast<float>(k % 7) - 0.03f;
  for (std::size_t k = 0; k < 32; ++k) params.w2[k] = 0.1f * static_cast<float>(k % 3) - 0.1f;
  std::vector<calx::tensor<float, 16>> xs(1000);
  std::vector<float> ys(1000);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    for (std::size_t k = 0; k < 16; ++k) xs[i][k] = std::sin(0.1f * static_cast<float>(i + 3 * k));
    ys[i] = std::cos(0.05f * static_cast<float>(i));
  }
  mlp g1 = calx::grad(loss)(params, xs[0], ys[0]);            // the gradient of a struct is that struct
  auto g = calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0, 0>)(params, xs, ys);
  mlp g999 = g[999];                                           // per-sample gradients; g.size() == 1000
  // [per_sample]
  std::printf("per-sample gradients: %zu; db2 of sample 0: %.6f (grad alone: %.6f); dw2(0, 1) of sample 999: %.6f\n",
              g.size(), double(mlp(g[0]).b2(0)), double(g1.b2(0)), double(g999.w2(0, 1)));

  // [trace]
  auto program = calx::trace([](const auto& w, const auto& x) { return calx::sum(calx::tanh(calx::matvec(w, x))); },
                             calx::tensor<float, 32, 16>{}, calx::tensor<float, 16>{});
  std::puts(calx::to_string(program).c_str());
  // [trace]
}
