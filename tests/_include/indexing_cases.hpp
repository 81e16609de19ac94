/// @file tests/_include/indexing_cases.hpp
/// @brief Indexing by runtime values: calx::take with an index tensor or one index,
/// calx::segment_sum and calx::dynamic_slice. Their index rules (JAX's: clamp, negative
/// from the end; segment_sum drops) on numbers and traced; traced programs against plain
/// loops; derivatives against central differences and the adjoint identity; jacfwd against
/// jacrev; Hessians; vmap with the same indices for every sample and with per-sample
/// indices (SIMD lanes that disagree); float programs; a loop's index as a start. The
/// functions and helpers of tests/tensor.indexing.0.cpp and .1.cpp (two TUs for the compile
/// budget).

#ifndef CALX_TESTS_INDEXING_CASES_HPP
#define CALX_TESTS_INDEXING_CASES_HPP

#include <_include/tensor_table.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace indexing_test {

using calx::tensor;
using calx_test::filled;
using calx_test::magnitude;
using calx_test::max_abs_diff;

using X = tensor<double, 4, 3>;
using I4 = tensor<int, 4>;

template <class T, std::size_t... D, class... V>
constexpr tensor<T, D...> make(tensor<T, D...>, V... v) {
  tensor<T, D...> t;
  std::size_t k = 0;
  ((t[k++] = static_cast<T>(v)), ...);
  return t;
}

/// JAX's index rule for x[i] along an axis of n entries: negative from the end, clamped.
inline int jax_clamp(long i, int n) {
  if (i < 0) i += n;
  return static_cast<int>(i < 0 ? 0 : i >= n ? n - 1 : i);
}

// The functions under test: a tensor and indices in, a scalar or a tensor out.
constexpr auto gathered = [](const auto& x, const auto& idx) { return calx::take(x, idx); };
constexpr auto gathered_cols = [](const auto& x, const auto& idx) { return calx::take(x, idx, calx::axis<1>); };
constexpr auto one_row = [](const auto& x, const auto& i) { return calx::take(x, i); };
constexpr auto segments = [](const auto& x, const auto& ids) { return calx::segment_sum<3>(x, ids); };
constexpr auto window = [](const auto& x, const auto& s) { return calx::dynamic_slice<2>(x, s); };
constexpr auto window_cols = [](const auto& x, const auto& s) { return calx::dynamic_slice<2>(x, s, calx::axis<1>); };

/// A scalar function of x through every op, nonlinear so that second derivatives are not zero.
constexpr auto mixed = [](const auto& x, const auto& idx, const auto& ids, const auto& s) {
  const auto a = calx::take(x, idx);                               // [4, 3]
  const auto b = calx::segment_sum<3>(calx::sin(x), ids);          // [3, 3]
  const auto c = calx::dynamic_slice<2>(x * x, s, calx::axis<1>);  // [4, 2]
  return calx::sum(a * a * calx::take(x, 1)) + calx::sum(b * calx::take(calx::take(x, idx), 0)) +
         calx::sum(calx::tanh(c)) * calx::sum(calx::take(a, 2, calx::axis<1>));
};

constexpr I4 idx_case(int c) {
  return c == 0 ? make(I4{}, 2, -1, 7, -9) : c == 1 ? make(I4{}, 0, 0, 3, 1) : make(I4{}, -4, 4, -5, 100);
}
constexpr I4 id_case(int c) { return c == 0 ? make(I4{}, 0, 2, 0, 5) : c == 1 ? make(I4{}, -1, 1, 1, 2) : make(I4{}, 3, -3, 2, 0); }
const I4 idx_cases[] = {idx_case(0), idx_case(1), idx_case(2)};
const I4 id_cases[] = {id_case(0), id_case(1), id_case(2)};
const int start_cases[] = {-10, -2, -1, 0, 1, 2, 3, 9};

/// Central differences of scalar `f` in x, against `g`.
template <class F, class G>
void check_against_differences(const F& f, const X& x, const G& g) {
  const double h = 1e-6;
  for (std::size_t k = 0; k < X::size; ++k) {
    X up = x, down = x;
    up[k] += h;
    down[k] -= h;
    const double fd = (double(f(up)) - double(f(down))) / (2 * h);
    INFO("element " << k);
    CHECK(std::abs(g[k] - fd) <= 1e-7 * (1.0 + std::abs(fd)));
  }
}

}  // namespace indexing_test

#endif  // CALX_TESTS_INDEXING_CASES_HPP
