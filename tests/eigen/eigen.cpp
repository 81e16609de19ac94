// Fixed-size Eigen matrices and arrays through calx's transforms (calx/eigen.hpp): the
// result types are Eigen's (grad of a Vector3d is a Vector3d, jacfwd of Vector3d -> Vector2d a
// Matrix<double, 2, 3>), storage order does not change the numbers, and every derivative is
// checked against its closed form (to 1e-14, relative to max(1, |value|)); the rotation,
// whose closed form is long, against central differences of the same function run by Eigen.
#include <calx/eigen.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

bool close(double a, double b, double tol = 1e-14) {
  return std::abs(a - b) <= tol * std::max({1.0, std::abs(a), std::abs(b)});
}
template <class A, class B>
bool all_close(const A& a, const B& b, double tol = 1e-14) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      if (!close(static_cast<double>(a(i, j)), static_cast<double>(b(i, j)), tol)) return false;
  return true;
}

// f(v) = v0^2 v1 + sin(v2) v0: gradient (2 v0 v1 + sin v2, v0^2, cos(v2) v0).
constexpr auto cubic = [](const auto& v) { return v.x() * v.x() * v.y() + sin(v.z()) * v.x(); };
Eigen::Vector3d cubic_grad(const Eigen::Vector3d& v) {
  return {2 * v.x() * v.y() + std::sin(v.z()), v.x() * v.x(), std::cos(v.z()) * v.x()};
}
Eigen::Matrix3d cubic_hessian(const Eigen::Vector3d& v) {
  Eigen::Matrix3d h;
  h << 2 * v.y(), 2 * v.x(), std::cos(v.z()), 2 * v.x(), 0, 0, std::cos(v.z()), 0, -std::sin(v.z()) * v.x();
  return h;
}

// g(v) = (v0 v1, sin v2): Jacobian [[v1, v0, 0], [0, 0, cos v2]].
constexpr auto pair_map = [](const auto& v) { return calx::eigen::make_vector(v.x() * v.y(), sin(v.z())); };
Eigen::Matrix<double, 2, 3> pair_jacobian(const Eigen::Vector3d& v) {
  Eigen::Matrix<double, 2, 3> j;
  j << v.y(), v.x(), 0, 0, 0, std::cos(v.z());
  return j;
}

}  // namespace

TEST_CASE("grad of a function of an Eigen::Vector3d is an Eigen::Vector3d", "[eigen]") {
  const Eigen::Vector3d v(0.7, -1.3, 0.4);
  const auto g = calx::grad(cubic)(v);
  STATIC_REQUIRE(std::is_same_v<decltype(g), const Eigen::Vector3d>);
  CHECK(all_close(g, cubic_grad(v)));

  const auto [value, g2] = calx::value_and_grad(cubic)(v);
  CHECK(close(value, v.x() * v.x() * v.y() + std::sin(v.z()) * v.x()));
  CHECK(all_close(g2, cubic_grad(v)));

  // float arguments give a float program and float results.
  const Eigen::Vector3f vf = v.cast<float>();
  const auto gf = calx::grad([](const auto& x) { return x.squaredNorm(); })(vf);
  STATIC_REQUIRE(std::is_same_v<decltype(gf), const Eigen::Vector3f>);
  CHECK(all_close(gf, (2.0f * vf).eval(), 1e-6));
}

TEST_CASE("jacfwd and jacrev of Vector3d -> Vector2d are Eigen::Matrix<double, 2, 3>", "[eigen]") {
  const Eigen::Vector3d v(0.7, -1.3, 0.4);
  const auto jf = calx::jacfwd(pair_map)(v);
  const auto jr = calx::jacrev(pair_map)(v);
  STATIC_REQUIRE(std::is_same_v<decltype(jf), const Eigen::Matrix<double, 2, 3>>);
  STATIC_REQUIRE(std::is_same_v<decltype(jr), const Eigen::Matrix<double, 2, 3>>);
  CHECK(all_close(jf, pair_jacobian(v)));
  CHECK(all_close(jr, pair_jacobian(v)));
}

TEST_CASE("hessian of a function of an Eigen::Vector3d is an Eigen::Matrix3d", "[eigen]") {
  const Eigen::Vector3d v(0.7, -1.3, 0.4);
  const auto h = calx::hessian(cubic)(v);
  STATIC_REQUIRE(std::is_same_v<decltype(h), const Eigen::Matrix3d>);
  CHECK(all_close(h, cubic_hessian(v)));
  const auto h2 = calx::jacfwd(calx::grad(cubic))(v);
  CHECK(all_close(h2, cubic_hessian(v)));
}

TEST_CASE("Eigen matrices in either storage order give the same derivatives, in their own type", "[eigen]") {
  // f(A) = w . (A u): gradient w u^T, whatever A's storage order.
  constexpr auto bilinear = [](const auto& a) {
    const calx::eigen::vector<3> u(1.0, 2.0, -0.5);
    const calx::eigen::vector<2> w(0.25, -3.0);
    return w.dot(a * u);
  };
  Eigen::Matrix<double, 2, 3> a;
  a << 1, 2, 3, 4, 5, 6;
  const Eigen::Matrix<double, 2, 3, Eigen::RowMajor> a_rows = a;
  const Eigen::Matrix<double, 2, 3> expected = Eigen::Vector2d(0.25, -3.0) * Eigen::RowVector3d(1.0, 2.0, -0.5);
  const auto g = calx::grad(bilinear)(a);
  const auto g_rows = calx::grad(bilinear)(a_rows);
  STATIC_REQUIRE(std::is_same_v<decltype(g), const Eigen::Matrix<double, 2, 3>>);
  STATIC_REQUIRE(std::is_same_v<decltype(g_rows), const Eigen::Matrix<double, 2, 3, Eigen::RowMajor>>);
  CHECK(all_close(g, expected));
  CHECK(all_close(g_rows, expected));
}

TEST_CASE("determinant and inverse of traced matrices up to 4 x 4", "[eigen]") {
  // d det(A) / dA = det(A) A^-T; the inverse's value is Eigen's, its tangent along dA
  // -A^-1 dA A^-1.
  auto check = [](const auto& a) {
    using M = std::remove_cvref_t<decltype(a)>;
    const auto g = calx::grad([](const auto& m) { return m.determinant(); })(a);
    CHECK(all_close(g, (a.determinant() * a.inverse().transpose()).eval(), 1e-13));
    const M da = M::Constant(0.5) + M::Identity();
    const auto [inv, tangent] = calx::jvp([](const auto& m) { return m.inverse(); }, std::tuple{a}, std::tuple{da});
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(inv)>, M>);
    CHECK(all_close(inv, a.inverse().eval(), 1e-13));
    CHECK(all_close(tangent, (-a.inverse() * da * a.inverse()).eval(), 1e-13));
  };
  Eigen::Matrix2d a2;
  a2 << 2, -1, 0.5, 0.3;
  Eigen::Matrix3d a3;
  a3 << 2, -1, 0.5, 0.3, 1.7, -0.2, 0.1, 0.4, 3.0;
  Eigen::Matrix4d a4;
  a4 << 2, -1, 0.5, 0.7, 0.3, 1.7, -0.2, 0.1, 0.1, 0.4, 3.0, -0.6, 0.9, 0.2, -0.3, 1.4;
  check(a2);
  check(a3);
  check(a4);
}

TEST_CASE("the Jacobian of a rotated point in the axis-angle (Rodrigues, written with Eigen's API)", "[eigen]") {
  // R(w) p with R = I + sin(t) K + (1 - cos(t)) K^2, K the cross-product matrix of w / t.
  constexpr auto rotate = [](const auto& w) {
    using M = calx::eigen::matrix<3, 3>;
    const calx::eigen::vector<3> p(0.3, -1.2, 2.0);
    const auto t = w.norm();
    const auto k = w / t;
    M kx;
    kx << 0, -k.z(), k.y(), k.z(), 0, -k.x(), -k.y(), k.x(), 0;
    const M r = M::Identity() + sin(t) * kx + (1.0 - cos(t)) * (kx * kx);
    return (r * p).eval();
  };
  const Eigen::Vector3d w(0.2, -0.4, 0.9);
  const Eigen::Vector3d p(0.3, -1.2, 2.0);
  auto eigen_rotate = [&](const Eigen::Vector3d& x) -> Eigen::Vector3d {
    return Eigen::AngleAxisd(x.norm(), x.normalized()) * p;
  };
  const auto j = calx::jacfwd(rotate)(w);
  STATIC_REQUIRE(std::is_same_v<decltype(j), const Eigen::Matrix3d>);
  CHECK(all_close(calx::jacrev(rotate)(w), j, 1e-14));
  // Central differences with h = 1e-5: truncation h^2 |f'''| / 6 ~ 1e-11, rounding
  // 1e-16 / h ~ 1e-11; 1e-9 leaves room for both.
  const double h = 1e-5;
  for (int c = 0; c < 3; ++c) {
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(c) * h;
    const Eigen::Vector3d d = (eigen_rotate(w + e) - eigen_rotate(w - e)) / (2 * h);
    CHECK(all_close(j.col(c), d, 1e-9));
  }
  // The value is Eigen's rotation.
  const auto [value, tangent] = calx::jvp(rotate, std::tuple{w}, std::tuple{Eigen::Vector3d::UnitX().eval()});
  CHECK(all_close(value, eigen_rotate(w), 1e-14));
  CHECK(all_close(tangent, j.col(0).eval(), 1e-14));
}

TEST_CASE("vmap over std::vector<Eigen::Vector3d>", "[eigen]") {
  std::vector<Eigen::Vector3d> vs;
  for (int k = 0; k < 37; ++k) vs.emplace_back(0.1 * k, 1.0 - 0.05 * k, std::sin(0.3 * k));
  const auto values = calx::vmap(cubic)(vs);
  const auto grads = calx::vmap(calx::grad(cubic))(vs);
  const auto maps = calx::vmap(pair_map)(vs);
  REQUIRE(values.size() == vs.size());
  REQUIRE(grads.size() == vs.size());
  STATIC_REQUIRE(std::is_same_v<decltype(grads), const calx::batched<Eigen::Vector3d>>);
  STATIC_REQUIRE(std::is_same_v<decltype(maps), const calx::batched<Eigen::Vector2d>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(maps[0])>, Eigen::Vector2d>);
  for (std::size_t k = 0; k < vs.size(); ++k) {
    const Eigen::Vector3d& v = vs[k];
    CHECK(close(values[k], v.x() * v.x() * v.y() + std::sin(v.z()) * v.x()));
    CHECK(all_close(grads[k], cubic_grad(v)));
    CHECK(all_close(maps[k], Eigen::Vector2d(v.x() * v.y(), std::sin(v.z()))));
  }
}

TEST_CASE("an Eigen::Map argument is read in place", "[eigen]") {
  const double buffer[] = {0.7, -1.3, 0.4};
  const Eigen::Map<const Eigen::Vector3d> v(buffer);
  const auto g = calx::grad(cubic)(v);
  STATIC_REQUIRE(std::is_same_v<decltype(g), const Eigen::Vector3d>);
  CHECK(all_close(g, cubic_grad(Eigen::Vector3d(buffer[0], buffer[1], buffer[2]))));
}

TEST_CASE("Eigen::Array: coefficient-wise arithmetic and math", "[eigen]") {
  // f(a) = sum(exp(a) * a): gradient exp(a) (1 + a).
  const Eigen::Array3d a(0.5, -0.25, 1.5);
  const auto g = calx::grad([](const auto& x) { return (x.exp() * x).sum(); })(a);
  STATIC_REQUIRE(std::is_same_v<decltype(g), const Eigen::Array3d>);
  CHECK(all_close(g, (a.exp() * (1 + a)).eval()));
}

TEST_CASE("Jacobians of Eigen matrices in matrices are calx::tensors (the output's axes, then the input's)", "[eigen]") {
  // F(v) = v v^T (2 x 2) of v in R^2: dF_ij / dv_k = d_ik v_j + v_i d_jk.
  const Eigen::Vector2d v(1.5, -0.5);
  const auto j = calx::jacfwd([](const auto& x) { return (x * x.transpose()).eval(); })(v);
  STATIC_REQUIRE(std::is_same_v<decltype(j), const calx::tensor<double, 2, 2, 2>>);
  for (int i = 0; i < 2; ++i)
    for (int jj = 0; jj < 2; ++jj)
      for (int k = 0; k < 2; ++k) CHECK(close(j(i, jj, k), (i == k ? v(jj) : 0.0) + (jj == k ? v(i) : 0.0)));
  // The Hessian of a function of a matrix: tensor<double, R, C, R, C>. f(A) = sum of A_ij^2 / 2: identity.
  const Eigen::Matrix2d a = Eigen::Matrix2d::Constant(0.5);
  const auto h = calx::hessian([](const auto& m) { return 0.5 * m.squaredNorm(); })(a);
  STATIC_REQUIRE(std::is_same_v<decltype(h), const calx::tensor<double, 2, 2, 2, 2>>);
  for (int i = 0; i < 2; ++i)
    for (int jj = 0; jj < 2; ++jj)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l) CHECK(h(i, jj, k, l) == (i == k && jj == l ? 1.0 : 0.0));
}

TEST_CASE("several arguments: Eigen and plain numbers", "[eigen]") {
  // f(v, s) = s * v (R^3 x R -> R^3): row i of the Jacobian is (d f_i / dv, d f_i / ds) =
  // (s e_i, v_i). Each coefficient of an Eigen result becomes the structure of the
  // arguments, as each element of a std::array result does.
  const Eigen::Vector3d v(0.7, -1.3, 0.4);
  const auto j = calx::jacfwd([](const auto& x, const auto& s) { return (x * s).eval(); }, calx::argnums<0, 1>)(v, 2.5);
  STATIC_REQUIRE(std::is_same_v<decltype(j), const std::array<std::tuple<Eigen::Vector3d, double>, 3>>);
  for (int i = 0; i < 3; ++i) {
    CHECK(all_close(std::get<0>(j[static_cast<std::size_t>(i)]), (2.5 * Eigen::Vector3d::Unit(i)).eval()));
    CHECK(std::get<1>(j[static_cast<std::size_t>(i)]) == v(i));
  }
}

TEST_CASE("vjp and linearize of an Eigen function", "[eigen]") {
  const Eigen::Vector3d v(0.7, -1.3, 0.4);
  const auto [y, pullback] = calx::vjp(pair_map, v);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(y)>, Eigen::Vector2d>);
  const Eigen::Vector2d ct(2.0, -1.0);
  const auto back = pullback(ct);
  CHECK(all_close(std::get<0>(back), (pair_jacobian(v).transpose() * ct).eval()));
  const auto [y2, linear] = calx::linearize(pair_map, v);
  const Eigen::Vector3d t(0.1, 0.2, -0.3);
  CHECK(all_close(y2, y));
  CHECK(all_close(linear(t), (pair_jacobian(v) * t).eval()));
}

TEST_CASE("Eigen and calx::tensor convert: a tensor as an Eigen map without a copy", "[eigen]") {
  calx::tensor<double, 2, 3> t;
  for (std::size_t k = 0; k < 6; ++k) t.data()[k] = static_cast<double>(k);
  auto m = calx::eigen::map(t);
  CHECK(m.data() == t.data());
  CHECK(m(1, 2) == 5.0);
  m(0, 1) = -1.0;  // writes the tensor
  CHECK(t(0, 1) == -1.0);
  const Eigen::Matrix<double, 2, 3> e = calx::eigen::to_eigen(t);
  CHECK(e(1, 0) == 3.0);
  const auto back = calx::eigen::to_tensor(e);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(back)>, calx::tensor<double, 2, 3>>);
  for (std::size_t k = 0; k < 6; ++k) CHECK(back.data()[k] == t.data()[k]);
  const auto v = calx::eigen::to_tensor(Eigen::Vector3d(1, 2, 3));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(v)>, calx::tensor<double, 3>>);
  CHECK(v(2) == 3.0);
}
