/// @file tests/_include/vmap_support.hpp
/// @brief What the vmap, reduce and batched tests share: the batch sizes every law runs at,
/// deterministic sample columns, column-against-oracle comparison with one Catch assertion
/// per column, and reading an xsimd batch lane by lane (the SIMD oracle).
///
/// Two oracles are used for `vmap(f)(xs)[i] == f(xs[i])` (STYLE point 22):
///  - the scalar loop: f's program (or transform) evaluated on one float/double at a time,
///    with libm kernels. Bitwise equal to vmap for + - * / sqrt min max where (IEEE
///    operations, correctly rounded in both); within a stated tolerance for transcendental
///    ops, whose xsimd kernels differ from libm by a few ulp;
///  - the SIMD loop: the same program evaluated on xsimd::batch<T> (calx/simd/batch.hpp),
///    one sample per lane, which is what vmap's loop runs. Bitwise equal whenever every
///    argument is batched (broadcast arguments are computed once on scalars, with libm).
/// "Bitwise" between two separately compiled code paths holds only where the compiler does
/// not fuse a * b + c into an fma (see `may_contract`); comparisons across code paths use
/// `same_ops`, which is bitwise where it can be and a few ulp where it cannot.
#ifndef CALX_TESTS_VMAP_SUPPORT_HPP
#define CALX_TESTS_VMAP_SUPPORT_HPP

#include "float_compare.hpp"

#include <catch2/catch.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace calx_test {

/// Lanes per SIMD register for T on the architecture vmap's loop uses by default.
template <class T>
inline constexpr std::size_t lanes_v = xsimd::batch<T>::size;

/// 0, 1, 3, 7, 17, 1000 and 65537 samples (65537 = 32 full chunks of 2048 and one
/// sample), and W - 1, W, W + 1 around the lane count W: empty, a lone padded group, full
/// groups plus a masked tail, several chunks with a one-sample last chunk.
template <class T>
std::vector<std::size_t> batch_sizes() {
  constexpr std::size_t w = lanes_v<T>;
  std::vector<std::size_t> s{0, 1, 3, 7, 17, 1000, 65537, w - 1, w, w + 1};
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

/// Sample i of a deterministic, well-spread sequence in [lo, hi) (a Weyl sequence; the
/// salt decorrelates columns), rounded to T.
template <class T>
T sample(std::size_t i, double lo, double hi, unsigned salt = 0) {
  const double u = std::fmod(0.5 + static_cast<double>(i) * 0.6180339887498949 + salt * 0.41421356237309515, 1.0);
  return static_cast<T>(lo + (hi - lo) * u);
}
template <class T>
std::vector<T> column(std::size_t n, double lo, double hi, unsigned salt = 0) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = sample<T>(i, lo, hi, salt);
  return v;
}

template <class T>
constexpr const char* type_name() {
  return sizeof(T) == 8 ? "double" : "float";
}

/// |got - want| <= atol + rtol * |want|; {0, 0} means bitwise (same_value: NaN matches NaN,
/// signed zeros distinguished).
struct tolerance {
  double rtol = 0, atol = 0;
  constexpr bool exact() const { return rtol == 0 && atol == 0; }
};
inline constexpr tolerance bitwise{};

/// Whether the compiler may contract a * b + c into one fused multiply-add: GCC does by
/// default in C++ (-ffp-contract=fast) whenever the target has FMA instructions (x86 with
/// -mfma / -march=haswell and later, every AArch64). Two code paths computing the same
/// operations (vmap's loop and a scalar or SIMD program compiled elsewhere) may then fuse
/// different pairs and round differently. Define CALX_TEST_FP_CONTRACT_OFF when building
/// with -ffp-contract=off to keep those comparisons bitwise.
#if defined(CALX_TEST_FP_CONTRACT_OFF)
inline constexpr bool may_contract = false;
#elif defined(__FMA__) || defined(__ARM_FEATURE_FMA) || defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
inline constexpr bool may_contract = true;
#else
inline constexpr bool may_contract = false;
#endif

/// Two code paths that perform the same operations on the same values: bitwise, unless
/// fma contraction may differ between them; then each contracted a * b + c rounds once
/// instead of twice (half an ulp of a term), and a handful of such differences, carried
/// through kernels that amplify them a little, stay within 16 ulp of the largest term
/// (`scale`, a bound on the magnitudes of the function's terms), relative or absolute.
/// (Measured with -march=native on AVX-512: at most 4 ulp.)
template <class T>
constexpr tolerance same_ops(double scale) {
  if constexpr (may_contract) {
    constexpr double eps = std::numeric_limits<T>::epsilon();
    return tolerance{16 * eps, 16 * eps * scale};
  } else {
    return bitwise;
  }
}

template <class T>
bool agrees(T got, T want, tolerance tol) {
  if (tol.exact()) return same_value(got, want);
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::abs(static_cast<double>(got) - static_cast<double>(want)) <=
         tol.atol + tol.rtol * std::abs(static_cast<double>(want));
}

/// Compares got[i] with want(i) for i < n (one CHECK for the whole column; the first
/// disagreement, the number of them and the worst difference are reported). With
/// CALX_VMAP_STATS=1 in the environment every comparison with a tolerance prints its worst
/// |got - want| and that over the bound: this is how the tolerances were chosen.
template <class Column, class Want>
void check_column(const std::string& what, const Column& got, std::size_t n, Want&& want, tolerance tol = bitwise) {
  using T = std::remove_cvref_t<decltype(got[0])>;
  std::size_t bad = 0, first = n;
  double worst = 0, worst_ratio = 0;
  for (std::size_t i = 0; i < n && i < got.size(); ++i) {
    const T w = static_cast<T>(want(i));
    const double diff = std::abs(static_cast<double>(got[i]) - static_cast<double>(w));
    if (diff == diff) {
      worst = std::max(worst, diff);
      if (!tol.exact())
        worst_ratio = std::max(worst_ratio, diff / (tol.atol + tol.rtol * std::abs(static_cast<double>(w))));
    }
    if (!agrees<T>(got[i], w, tol) && bad++ == 0) first = i;
  }
  if (!tol.exact() && std::getenv("CALX_VMAP_STATS") != nullptr)
    std::fprintf(stderr, "calx vmap stats: %-60s %-6s n=%-6zu worst |diff| %.3g = %.3g of the bound\n", what.c_str(),
                 type_name<T>(), n, worst, worst_ratio);
  std::ostringstream s;
  s << what << " (n = " << n << ", "
    << (tol.exact() ? std::string("bitwise") : "rtol " + text(tol.rtol) + ", atol " + text(tol.atol)) << ")";
  if (bad != 0)
    s << ": " << bad << " samples differ, first at i = " << first << ": got " << text(static_cast<T>(got[first]))
      << ", want " << text(static_cast<T>(want(first))) << "; worst |diff| " << worst;
  INFO(s.str());
  CHECK(got.size() == n);
  CHECK(bad == 0);
}

/// The column `pick(r[i])` of a per-sample result `r` (one structure per sample, indexed
/// r[sample][...]): what check_column compares.
template <class Result, class Pick>
auto column_of(const Result& r, Pick&& pick) {
  using T = std::remove_cvref_t<decltype(pick(r[0]))>;
  std::vector<T> c(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) c[i] = pick(r[i]);
  return c;
}

/// A SIMD group of samples [i, i + W) of a column; lanes past the end repeat the last
/// sample, as vmap's loop pads its tail.
template <class T>
xsimd::batch<T> group(const std::vector<T>& xs, std::size_t i) {
  alignas(64) T l[lanes_v<T>];
  for (std::size_t k = 0; k < lanes_v<T>; ++k) l[k] = xs[std::min(i + k, xs.size() - 1)];
  return xsimd::batch<T>::load_aligned(l);
}
template <class T>
std::array<T, lanes_v<T>> lanes(const xsimd::batch<T>& b) {
  alignas(64) std::array<T, lanes_v<T>> l{};
  b.store_aligned(l.data());
  return l;
}

/// The SIMD loop: for each group of W samples, `g(i)` returns one xsimd::batch<T> per
/// output column (a std::array of K batches); the result is K columns of n samples.
template <class T, std::size_t K, class G>
std::array<std::vector<T>, K> simd_loop(std::size_t n, G&& g) {
  std::array<std::vector<T>, K> out;
  for (auto& c : out) c.resize(n);
  for (std::size_t i = 0; i < n; i += lanes_v<T>) {
    const std::array<xsimd::batch<T>, K> r = g(i);
    for (std::size_t k = 0; k < K; ++k) {
      const auto l = lanes(r[k]);
      for (std::size_t j = 0; j < lanes_v<T> && i + j < n; ++j) out[k][i + j] = l[j];
    }
  }
  return out;
}

/// The rounding error of the batched sum of n values of total magnitude `sum_abs`: each
/// lane adds at most 2048 / W values of a chunk in sequence, lanes are combined in log2(W)
/// steps and chunk totals added in sequence; each step errs by at most eps (twice the unit
/// roundoff, for margin) of the magnitudes summed so far.
template <class T>
double sum_bound(std::size_t n, double sum_abs) {
  const double chain = static_cast<double>(std::min<std::size_t>(n, 2048) / lanes_v<T> + 3 + (n + 2047) / 2048);
  return chain * std::numeric_limits<T>::epsilon() * sum_abs;
}

/// A sum over a batch against one added in double: the batched sum's own rounding
/// (`sum_bound`), and a few ulps of each term of total magnitude `sum_abs`, computed by
/// another program (one vjp of the whole against one per sample, libm against xsimd's
/// kernels) whose ops the compiler orders and contracts differently.
template <class T>
double batch_tolerance(std::size_t n, double sum_abs) {
  return sum_bound<T>(n, sum_abs) + 16 * std::numeric_limits<T>::epsilon() * sum_abs;
}

}  // namespace calx_test

#endif // CALX_TESTS_VMAP_SUPPORT_HPP
