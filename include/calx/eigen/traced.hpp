/// @file eigen/traced.hpp
/// @brief `calx::eigen::traced<R, C, Kind, Options>`: what a function calx traces receives for
/// a fixed-size `Eigen::Matrix` or `Eigen::Array` argument, and returns for such a result. Eigen
/// itself cannot run there (none of its functions is constexpr, and calx traces at compile
/// time), so this is a constexpr matrix of `calx::eigen::scalar`s (a traced number, or a
/// constant folded as a number) with the part of Eigen's API that numerical code computes
/// with: coefficients, arithmetic, products, transpose, reductions and norms, blocks (as
/// values), cross, determinant and inverse up to 4 x 4, and the coefficient-wise math of
/// arrays. Optional: needs Eigen 3 (Debian's libeigen3-dev); docs/eigen.md.
#ifndef CALX_EIGEN_TRACED_HPP
#define CALX_EIGEN_TRACED_HPP

#include <calx/config.hpp>
#include <calx/interop/scalar.hpp>
#include <calx/tracer.hpp>

#include <Eigen/Core>

#include <array>
#include <concepts>
#include <cstddef>

CALX_BEGIN_NAMESPACE

namespace eigen {

/// The coefficient type of a traced Eigen value (`traced<...>::Scalar`): its math is found
/// by argument-dependent lookup (`sin(v.x())`, `sqrt(s)`), as for a Ceres Jet.
using scalar = interop::scalar;

/// Which Eigen class template a traced value stands for: `*` is the matrix product for
/// `Eigen::Matrix`, coefficient-wise for `Eigen::Array`.
enum class kind { matrix, array };

/// Eigen's default storage order for an R x C matrix (a row vector is row-major).
template <int R, int C>
inline constexpr int default_options = (R == 1 && C != 1) ? Eigen::RowMajor : Eigen::ColMajor;

template <int R, int C, kind K = kind::matrix, int Options = default_options<R, C>>
class traced;

/// The traced forms of `Eigen::Matrix<double, R, C>`, `Eigen::Array<double, R, C>` and
/// `Eigen::Matrix<double, N, 1>`, to spell results with (`calx::eigen::vector<2>{a, b}`).
template <int R, int C>
using matrix = traced<R, C, kind::matrix>;
template <int R, int C>
using array = traced<R, C, kind::array>;
template <int N>
using vector = traced<N, 1>;

namespace detail {
/// What a coefficient may be given as: a scalar, a traced value, or a plain number.
template <class X>
concept coefficient = std::same_as<X, scalar> || real_tracer<X> || calx::number<X>;

template <class X>
constexpr scalar to_scalar(const X& x) {
  if constexpr (std::same_as<X, scalar>)
    return x;
  else if constexpr (real_tracer<X>)
    return scalar(static_cast<const tracer&>(x));
  else
    return scalar(x);
}

constexpr void check_index(bool ok) {
  if (!ok) ::calx::detail::trace_error("calx::eigen: a coefficient index out of range");
}

struct access;
}  // namespace detail

template <int R, int C, kind K, int Options>
class traced {
  static_assert(R > 0 && C > 0, "calx::eigen: a traced Eigen value has a fixed size");
  static constexpr std::size_t n = static_cast<std::size_t>(R * C);

 public:
  using Scalar = scalar;
  static constexpr int RowsAtCompileTime = R;
  static constexpr int ColsAtCompileTime = C;
  static constexpr int SizeAtCompileTime = R * C;
  static constexpr bool IsVectorAtCompileTime = R == 1 || C == 1;
  static constexpr bool IsRowMajor = (Options & Eigen::RowMajor) != 0;

  /// Zeros (constants).
  constexpr traced() = default;
  /// A vector from its coefficients, as `Eigen::Vector3d(x, y, z)`.
  template <detail::coefficient... X>
    requires(IsVectorAtCompileTime && sizeof...(X) == n && sizeof...(X) > 1)
  constexpr traced(const X&... x) : e_{detail::to_scalar(x)...} {}
  /// The same coefficients in another storage order (implicit, as in Eigen), or of the
  /// other class template (explicit: `array()` and `matrix()`).
  template <kind K2, int O2>
    requires(K2 != K || O2 != Options)
  constexpr explicit(K2 != K) traced(const traced<R, C, K2, O2>& o) : e_(o.coefficients()) {}

  // ---- coefficients ----------------------------------------------------------------------
  static constexpr int rows() { return R; }
  static constexpr int cols() { return C; }
  static constexpr int size() { return R * C; }
  constexpr scalar& operator()(int i, int j) { return e_[at(i, j)]; }
  constexpr const scalar& operator()(int i, int j) const { return e_[at(i, j)]; }
  constexpr scalar& operator()(int k)
    requires IsVectorAtCompileTime
  {
    return e_[at(k)];
  }
  constexpr const scalar& operator()(int k) const
    requires IsVectorAtCompileTime
  {
    return e_[at(k)];
  }
  constexpr scalar& operator[](int k)
    requires IsVectorAtCompileTime
  {
    return e_[at(k)];
  }
  constexpr const scalar& operator[](int k) const
    requires IsVectorAtCompileTime
  {
    return e_[at(k)];
  }
  constexpr scalar coeff(int i, int j) const { return (*this)(i, j); }
  constexpr scalar& coeffRef(int i, int j) { return (*this)(i, j); }
  constexpr const scalar& x() const requires(IsVectorAtCompileTime && n >= 1) { return e_[0]; }
  constexpr const scalar& y() const requires(IsVectorAtCompileTime && n >= 2) { return e_[1]; }
  constexpr const scalar& z() const requires(IsVectorAtCompileTime && n >= 3) { return e_[2]; }
  constexpr const scalar& w() const requires(IsVectorAtCompileTime && n >= 4) { return e_[3]; }
  constexpr scalar& x() requires(IsVectorAtCompileTime && n >= 1) { return e_[0]; }
  constexpr scalar& y() requires(IsVectorAtCompileTime && n >= 2) { return e_[1]; }
  constexpr scalar& z() requires(IsVectorAtCompileTime && n >= 3) { return e_[2]; }
  constexpr scalar& w() requires(IsVectorAtCompileTime && n >= 4) { return e_[3]; }
  /// The coefficients, row by row (whatever the storage order: calx keeps none).
  constexpr const std::array<scalar, n>& coefficients() const { return e_; }
  /// A 1 x 1 value as its coefficient (an inner product `a.transpose() * b`, as in Eigen).
  constexpr scalar value() const requires(n == 1) { return e_[0]; }
  constexpr operator scalar() const requires(n == 1) { return e_[0]; }

  // ---- constants and setters ---------------------------------------------------------------
  static constexpr traced Zero() { return traced{}; }
  template <detail::coefficient X>
  static constexpr traced Constant(const X& c) {
    traced t;
    for (scalar& e : t.e_) e = detail::to_scalar(c);
    return t;
  }
  static constexpr traced Ones() { return Constant(1.0); }
  static constexpr traced Identity() {
    traced t;
    for (int i = 0; i < (R < C ? R : C); ++i) t(i, i) = scalar(1.0);
    return t;
  }
  static constexpr traced Unit(int k) requires IsVectorAtCompileTime {
    traced t;
    t(k) = scalar(1.0);
    return t;
  }
  static constexpr traced UnitX() requires(IsVectorAtCompileTime && n >= 1) { return Unit(0); }
  static constexpr traced UnitY() requires(IsVectorAtCompileTime && n >= 2) { return Unit(1); }
  static constexpr traced UnitZ() requires(IsVectorAtCompileTime && n >= 3) { return Unit(2); }
  static constexpr traced UnitW() requires(IsVectorAtCompileTime && n >= 4) { return Unit(3); }
  constexpr traced& setZero() { return *this = Zero(); }
  constexpr traced& setOnes() { return *this = Ones(); }
  constexpr traced& setIdentity() { return *this = Identity(); }
  template <detail::coefficient X>
  constexpr traced& setConstant(const X& c) {
    return *this = Constant(c);
  }

  /// Eigen's comma initialiser, coefficients row by row: `m << a, b, c, d;`.
  class comma_initializer {
   public:
    constexpr comma_initializer(traced& m, const scalar& first) : m_(m) { put(first); }
    template <detail::coefficient X>
    constexpr comma_initializer& operator,(const X& x) {
      put(detail::to_scalar(x));
      return *this;
    }
    constexpr traced& finished() { return m_; }
    constexpr ~comma_initializer() {
      if (k_ != n) refuse(&report_too_few);
    }

   private:
    static constexpr void report_too_few(bool now) {
      if (now) ::calx::detail::trace_error("calx::eigen: operator<< was given fewer coefficients than the matrix has");
    }
    static constexpr void report_too_many(bool now) {
      if (now) ::calx::detail::trace_error("calx::eigen: operator<< was given more coefficients than the matrix has");
    }
    // Recorded in the trace, which goes on and is reported once by the transform's call
    // (graph::refuse); with no traced coefficient, at once.
    constexpr void refuse(void (*report)(bool)) const {
      for (const scalar& x : m_.e_)
        if (x.traced()) return x.value.graph->refuse(report);
      report(true);
    }
    constexpr void put(const scalar& x) {
      if (k_ >= n) {
        refuse(&report_too_many);
      } else {
        m_.e_[k_++] = x;
      }
    }
    traced& m_;
    std::size_t k_ = 0;
  };
  template <detail::coefficient X>
  constexpr comma_initializer operator<<(const X& x) {
    return comma_initializer(*this, detail::to_scalar(x));
  }

  // ---- views as values -------------------------------------------------------------------
  constexpr traced<C, R, K> transpose() const {
    traced<C, R, K> t;
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) t(j, i) = (*this)(i, j);
    return t;
  }
  constexpr traced<R, C, kind::array, Options> array() const { return traced<R, C, kind::array, Options>(*this); }
  constexpr traced<R, C, kind::matrix, Options> matrix() const { return traced<R, C, kind::matrix, Options>(*this); }
  constexpr traced eval() const { return *this; }
  /// A P x Q block from (i, j), copied (calx's blocks are values: write coefficients).
  template <int P, int Q>
  constexpr traced<P, Q, K> block(int i, int j) const {
    traced<P, Q, K> b;
    for (int r = 0; r < P; ++r)
      for (int c = 0; c < Q; ++c) b(r, c) = (*this)(i + r, j + c);
    return b;
  }
  template <int P, int Q>
  constexpr traced<P, Q, K> topLeftCorner() const {
    return block<P, Q>(0, 0);
  }
  constexpr traced<1, C, K> row(int i) const { return block<1, C>(i, 0); }
  constexpr traced<R, 1, K> col(int j) const { return block<R, 1>(0, j); }
  template <int P>
  constexpr auto segment(int k) const requires IsVectorAtCompileTime {
    if constexpr (R == 1)
      return block<1, P>(0, k);
    else
      return block<P, 1>(k, 0);
  }
  template <int P>
  constexpr auto head() const requires IsVectorAtCompileTime {
    return segment<P>(0);
  }
  template <int P>
  constexpr auto tail() const requires IsVectorAtCompileTime {
    return segment<P>(static_cast<int>(n) - P);
  }
  /// A vector as the diagonal of a square matrix.
  constexpr traced<static_cast<int>(n), static_cast<int>(n), K> asDiagonal() const requires IsVectorAtCompileTime {
    traced<static_cast<int>(n), static_cast<int>(n), K> d;
    for (int k = 0; k < static_cast<int>(n); ++k) d(k, k) = e_[static_cast<std::size_t>(k)];
    return d;
  }

  // ---- reductions --------------------------------------------------------------------------
  constexpr scalar sum() const {
    scalar s = e_[0];
    for (std::size_t k = 1; k < n; ++k) s = s + e_[k];
    return s;
  }
  constexpr scalar prod() const {
    scalar s = e_[0];
    for (std::size_t k = 1; k < n; ++k) s = s * e_[k];
    return s;
  }
  constexpr scalar mean() const { return sum() / static_cast<double>(n); }
  constexpr scalar minCoeff() const {
    scalar s = e_[0];
    for (std::size_t k = 1; k < n; ++k) s = interop::fmin(s, e_[k]);
    return s;
  }
  constexpr scalar maxCoeff() const {
    scalar s = e_[0];
    for (std::size_t k = 1; k < n; ++k) s = interop::fmax(s, e_[k]);
    return s;
  }
  constexpr scalar trace() const {
    scalar s = (*this)(0, 0);
    for (int i = 1; i < (R < C ? R : C); ++i) s = s + (*this)(i, i);
    return s;
  }
  constexpr scalar squaredNorm() const {
    scalar s = e_[0] * e_[0];
    for (std::size_t k = 1; k < n; ++k) s = s + e_[k] * e_[k];
    return s;
  }
  constexpr scalar norm() const { return interop::sqrt(squaredNorm()); }
  constexpr traced normalized() const { return map([r = 1.0 / norm()](const scalar& x) { return x * r; }); }
  constexpr void normalize() { *this = normalized(); }
  template <int O2>
  constexpr scalar dot(const traced<R, C, K, O2>& b) const requires IsVectorAtCompileTime {
    scalar s = e_[0] * b.coefficients()[0];
    for (std::size_t k = 1; k < n; ++k) s = s + e_[k] * b.coefficients()[k];
    return s;
  }
  template <int O2>
  constexpr traced cross(const traced<R, C, K, O2>& b) const requires(IsVectorAtCompileTime && n == 3) {
    const auto& a = e_;
    const auto& c = b.coefficients();
    traced t;
    t.e_ = {a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]};
    return t;
  }
  /// The determinant of a square matrix of at most 4 x 4, written out (as Eigen's are:
  /// by cofactors; a pivoting factorisation would branch on the values).
  constexpr scalar determinant() const {
    static_assert(R == C && R <= 4, "calx::eigen: determinant() of a traced matrix is written out for square "
                                    "matrices up to 4 x 4; compose larger ones from blocks");
    const auto& m = *this;
    if constexpr (R == 1) {
      return m(0, 0);
    } else if constexpr (R == 2) {
      return m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
    } else if constexpr (R == 3) {
      return m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)) - m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0)) +
             m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0));
    } else {
      const minors4 q(m);
      return q.s[0] * q.c[5] - q.s[1] * q.c[4] + q.s[2] * q.c[3] + q.s[3] * q.c[2] - q.s[4] * q.c[1] + q.s[5] * q.c[0];
    }
  }

  // ---- coefficient-wise ----------------------------------------------------------------------
  /// `f` on every coefficient (Eigen's unaryExpr).
  template <class F>
  constexpr traced unaryExpr(F f) const {
    return map(f);
  }
  template <int O2>
  constexpr traced cwiseProduct(const traced<R, C, K, O2>& b) const {
    return zip(b, [](const scalar& x, const scalar& y) { return x * y; });
  }
  template <int O2>
  constexpr traced cwiseQuotient(const traced<R, C, K, O2>& b) const {
    return zip(b, [](const scalar& x, const scalar& y) { return x / y; });
  }
  template <int O2>
  constexpr traced cwiseMax(const traced<R, C, K, O2>& b) const {
    return zip(b, [](const scalar& x, const scalar& y) { return interop::fmax(x, y); });
  }
  template <int O2>
  constexpr traced cwiseMin(const traced<R, C, K, O2>& b) const {
    return zip(b, [](const scalar& x, const scalar& y) { return interop::fmin(x, y); });
  }
  constexpr traced cwiseAbs() const { return map([](const scalar& x) { return interop::abs(x); }); }
  constexpr traced cwiseAbs2() const { return map([](const scalar& x) { return x * x; }); }
  constexpr traced cwiseSqrt() const { return map([](const scalar& x) { return interop::sqrt(x); }); }
  constexpr traced cwiseInverse() const { return map([](const scalar& x) { return 1.0 / x; }); }

  // Arrays' math (Eigen::Array's members).
#define CALX_EIGEN_ARRAY_FN(name, expr)                                    \
  constexpr traced name() const requires(K == kind::array) {               \
    return map([](const scalar& x) { return expr; });                      \
  }
  CALX_EIGEN_ARRAY_FN(exp, interop::exp(x))
  CALX_EIGEN_ARRAY_FN(log, interop::log(x))
  CALX_EIGEN_ARRAY_FN(log1p, interop::log1p(x))
  CALX_EIGEN_ARRAY_FN(sqrt, interop::sqrt(x))
  CALX_EIGEN_ARRAY_FN(abs, interop::abs(x))
  CALX_EIGEN_ARRAY_FN(abs2, x * x)
  CALX_EIGEN_ARRAY_FN(square, x * x)
  CALX_EIGEN_ARRAY_FN(cube, x * x * x)
  CALX_EIGEN_ARRAY_FN(sin, interop::sin(x))
  CALX_EIGEN_ARRAY_FN(cos, interop::cos(x))
  CALX_EIGEN_ARRAY_FN(tan, interop::tan(x))
  CALX_EIGEN_ARRAY_FN(tanh, interop::tanh(x))
#undef CALX_EIGEN_ARRAY_FN
  /// An array's coefficient-wise 1 / x; a matrix's inverse (square, up to 3 x 3).
  constexpr traced inverse() const {
    if constexpr (K == kind::array) {
      return cwiseInverse();
    } else {
      static_assert(R == C && R <= 4, "calx::eigen: inverse() of a traced matrix is written out for square "
                                      "matrices up to 4 x 4 (by cofactors); solve larger systems by blocks");
      traced t;
      const auto& m = *this;
      if constexpr (!(R == C && R <= 4)) {
        return t;  // reported above
      } else if constexpr (R == 1) {
        const scalar r = 1.0 / determinant();
        t(0, 0) = r;
      } else if constexpr (R == 2) {
        const scalar r = 1.0 / determinant();
        t(0, 0) = m(1, 1) * r;
        t(0, 1) = -m(0, 1) * r;
        t(1, 0) = -m(1, 0) * r;
        t(1, 1) = m(0, 0) * r;
      } else if constexpr (R == 3) {
        const scalar r = 1.0 / determinant();
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            // Cofactor of (j, i): the adjugate is the transposed cofactor matrix.
            const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
            t(i, j) = (m(r0, c0) * m(r1, c1) - m(r0, c1) * m(r1, c0)) * r;
          }
      } else {
        // The adjugate from the 2 x 2 minors of the top two rows (s) and the bottom two (c).
        const scalar r = 1.0 / determinant();
        const minors4 q(m);
        const auto& s = q.s;
        const auto& c = q.c;
        const scalar b[16] = {
            m(1, 1) * c[5] - m(1, 2) * c[4] + m(1, 3) * c[3],  -m(0, 1) * c[5] + m(0, 2) * c[4] - m(0, 3) * c[3],
            m(3, 1) * s[5] - m(3, 2) * s[4] + m(3, 3) * s[3],  -m(2, 1) * s[5] + m(2, 2) * s[4] - m(2, 3) * s[3],
            -m(1, 0) * c[5] + m(1, 2) * c[2] - m(1, 3) * c[1], m(0, 0) * c[5] - m(0, 2) * c[2] + m(0, 3) * c[1],
            -m(3, 0) * s[5] + m(3, 2) * s[2] - m(3, 3) * s[1], m(2, 0) * s[5] - m(2, 2) * s[2] + m(2, 3) * s[1],
            m(1, 0) * c[4] - m(1, 1) * c[2] + m(1, 3) * c[0],  -m(0, 0) * c[4] + m(0, 1) * c[2] - m(0, 3) * c[0],
            m(3, 0) * s[4] - m(3, 1) * s[2] + m(3, 3) * s[0],  -m(2, 0) * s[4] + m(2, 1) * s[2] - m(2, 3) * s[0],
            -m(1, 0) * c[3] + m(1, 1) * c[1] - m(1, 2) * c[0], m(0, 0) * c[3] - m(0, 1) * c[1] + m(0, 2) * c[0],
            -m(3, 0) * s[3] + m(3, 1) * s[1] - m(3, 2) * s[0], m(2, 0) * s[3] - m(2, 1) * s[1] + m(2, 2) * s[0]};
        for (std::size_t k = 0; k < 16; ++k) t.e_[k] = b[k] * r;
      }
      return t;
    }
  }
  template <detail::coefficient X>
  constexpr traced pow(const X& p) const requires(K == kind::array) {
    const scalar q = detail::to_scalar(p);
    return map([q](const scalar& x) { return interop::pow(x, q); });
  }

  // ---- in place ------------------------------------------------------------------------------
  template <int O2>
  constexpr traced& operator+=(const traced<R, C, K, O2>& b) {
    return *this = zip(b, [](const scalar& x, const scalar& y) { return x + y; });
  }
  template <int O2>
  constexpr traced& operator-=(const traced<R, C, K, O2>& b) {
    return *this = zip(b, [](const scalar& x, const scalar& y) { return x - y; });
  }
  template <detail::coefficient X>
  constexpr traced& operator*=(const X& s) {
    const scalar c = detail::to_scalar(s);
    return *this = map([c](const scalar& x) { return x * c; });
  }
  template <detail::coefficient X>
  constexpr traced& operator/=(const X& s) {
    const scalar c = detail::to_scalar(s);
    return *this = map([c](const scalar& x) { return x / c; });
  }

  /// `f` on every coefficient; `f` on the coefficients of this and `b`, pairwise.
  template <class F>
  constexpr traced map(F f) const {
    traced t;
    for (std::size_t k = 0; k < n; ++k) t.e_[k] = detail::to_scalar(f(e_[k]));
    return t;
  }
  template <int O2, class F>
  constexpr traced zip(const traced<R, C, K, O2>& b, F f) const {
    traced t;
    for (std::size_t k = 0; k < n; ++k) t.e_[k] = detail::to_scalar(f(e_[k], b.coefficients()[k]));
    return t;
  }

 private:
  friend struct detail::access;
  /// A 4 x 4 matrix's 2 x 2 minors: of rows 0-1 (`s`) and of rows 2-3 (`c`), columns
  /// (01, 02, 03, 12, 13, 23) and (23, 13, 12, 03, 02, 01) reversed as the expansion pairs them.
  struct minors4 {
    scalar s[6], c[6];
    constexpr explicit minors4(const traced& m)
        : s{m(0, 0) * m(1, 1) - m(1, 0) * m(0, 1), m(0, 0) * m(1, 2) - m(1, 0) * m(0, 2),
            m(0, 0) * m(1, 3) - m(1, 0) * m(0, 3), m(0, 1) * m(1, 2) - m(1, 1) * m(0, 2),
            m(0, 1) * m(1, 3) - m(1, 1) * m(0, 3), m(0, 2) * m(1, 3) - m(1, 2) * m(0, 3)},
          c{m(2, 0) * m(3, 1) - m(3, 0) * m(2, 1), m(2, 0) * m(3, 2) - m(3, 0) * m(2, 2),
            m(2, 0) * m(3, 3) - m(3, 0) * m(2, 3), m(2, 1) * m(3, 2) - m(3, 1) * m(2, 2),
            m(2, 1) * m(3, 3) - m(3, 1) * m(2, 3), m(2, 2) * m(3, 3) - m(3, 2) * m(2, 3)} {}
  };
  static constexpr std::size_t at(int i, int j) {
    detail::check_index(i >= 0 && i < R && j >= 0 && j < C);
    return static_cast<std::size_t>(i * C + j);
  }
  static constexpr std::size_t at(int k) {
    detail::check_index(k >= 0 && k < R * C);
    return static_cast<std::size_t>(k);
  }
  std::array<scalar, n> e_{};
};

// ---- arithmetic ------------------------------------------------------------------------------

template <int R, int C, kind K, int O1, int O2>
constexpr traced<R, C, K, O1> operator+(const traced<R, C, K, O1>& a, const traced<R, C, K, O2>& b) {
  return a.zip(b, [](const scalar& x, const scalar& y) { return x + y; });
}
template <int R, int C, kind K, int O1, int O2>
constexpr traced<R, C, K, O1> operator-(const traced<R, C, K, O1>& a, const traced<R, C, K, O2>& b) {
  return a.zip(b, [](const scalar& x, const scalar& y) { return x - y; });
}
template <int R, int C, kind K, int O>
constexpr traced<R, C, K, O> operator-(const traced<R, C, K, O>& a) {
  return a.map([](const scalar& x) { return -x; });
}
template <int R, int C, kind K, int O, detail::coefficient X>
constexpr traced<R, C, K, O> operator*(const traced<R, C, K, O>& a, const X& s) {
  const scalar c = detail::to_scalar(s);
  return a.map([c](const scalar& x) { return x * c; });
}
template <int R, int C, kind K, int O, detail::coefficient X>
constexpr traced<R, C, K, O> operator*(const X& s, const traced<R, C, K, O>& a) {
  const scalar c = detail::to_scalar(s);
  return a.map([c](const scalar& x) { return c * x; });
}
template <int R, int C, kind K, int O, detail::coefficient X>
constexpr traced<R, C, K, O> operator/(const traced<R, C, K, O>& a, const X& s) {
  const scalar c = detail::to_scalar(s);
  return a.map([c](const scalar& x) { return x / c; });
}
/// The matrix product.
template <int R, int M, int C, int O1, int O2>
constexpr traced<R, C> operator*(const traced<R, M, kind::matrix, O1>& a, const traced<M, C, kind::matrix, O2>& b) {
  traced<R, C> p;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      scalar s = a(i, 0) * b(0, j);
      for (int k = 1; k < M; ++k) s = s + a(i, k) * b(k, j);
      p(i, j) = s;
    }
  return p;
}
/// Arrays: coefficient-wise products and quotients, and a scalar added or subtracted.
template <int R, int C, int O1, int O2>
constexpr traced<R, C, kind::array, O1> operator*(const traced<R, C, kind::array, O1>& a,
                                                  const traced<R, C, kind::array, O2>& b) {
  return a.cwiseProduct(b);
}
template <int R, int C, int O1, int O2>
constexpr traced<R, C, kind::array, O1> operator/(const traced<R, C, kind::array, O1>& a,
                                                  const traced<R, C, kind::array, O2>& b) {
  return a.cwiseQuotient(b);
}
template <int R, int C, int O, detail::coefficient X>
constexpr traced<R, C, kind::array, O> operator+(const traced<R, C, kind::array, O>& a, const X& s) {
  const scalar c = detail::to_scalar(s);
  return a.map([c](const scalar& x) { return x + c; });
}
template <int R, int C, int O, detail::coefficient X>
constexpr traced<R, C, kind::array, O> operator+(const X& s, const traced<R, C, kind::array, O>& a) {
  return a + s;
}
template <int R, int C, int O, detail::coefficient X>
constexpr traced<R, C, kind::array, O> operator-(const traced<R, C, kind::array, O>& a, const X& s) {
  const scalar c = detail::to_scalar(s);
  return a.map([c](const scalar& x) { return x - c; });
}
template <int R, int C, int O, detail::coefficient X>
constexpr traced<R, C, kind::array, O> operator-(const X& s, const traced<R, C, kind::array, O>& a) {
  const scalar c = detail::to_scalar(s);
  return a.map([c](const scalar& x) { return c - x; });
}

/// A traced vector from coefficients, its size theirs: `calx::eigen::make_vector(a, b)` is a
/// `calx::eigen::vector<2>`, the traced form of an `Eigen::Vector2d` result.
template <detail::coefficient... X>
constexpr vector<static_cast<int>(sizeof...(X))> make_vector(const X&... x) {
  vector<static_cast<int>(sizeof...(X))> v;
  int k = 0;
  ((v(k++) = detail::to_scalar(x)), ...);
  return v;
}

}  // namespace eigen

CALX_END_NAMESPACE

#endif  // CALX_EIGEN_TRACED_HPP
