/// @file bench/gradbench/det.cpp
/// @brief GradBench's det (evals/det, cmpad's det_by_minor): the determinant of an
/// ell x ell matrix by expansion by minors, and its gradient.
///
/// Expansion by minors along the first rows is a sum of terms, one for each way of picking
/// a column in each of the first ell - 4 rows: the sign, the product of the picked entries,
/// and the determinant of the 4 x 4 minor left in the last rows, itself expanded by minors
/// (`det_by_minors`, unrolled at compile time). The terms are the same products the
/// recursion forms, summed in another order. Each term is written once (`term`): it gathers
/// its entries from the matrix by `calx::take` with the term's indices, and `vmap` runs it
/// over a runtime batch of terms, so the program does not grow with ell! and one program
/// serves every ell up to 11. The gradient is `calx::grad`'s (take's transpose scatters each
/// term's cotangent back into the matrix).
#include "protocol.hpp"

#include <calx/calx.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace calx_gradbench {
namespace {

constexpr std::size_t max_ell = 11;           // the eval's largest default size
constexpr std::size_t minor_size = 4;         // the minor each term expands at compile time
constexpr std::size_t picks = max_ell - minor_size;
constexpr std::size_t term_size = 1 + picks + minor_size * minor_size;  // sign, picks, minor
constexpr std::size_t chunk_size = 4096;

// The matrix, row-major with row stride ell, then a 1 and a 0 that pad terms of a smaller
// matrix: fewer picks multiply by the 1, and below ell = 4 the minor is the matrix bordered
// by an identity.
constexpr std::size_t one_at = max_ell * max_ell, zero_at = one_at + 1;
using matrix = calx::tensor<double, zero_at + 1>;
using term_indices = calx::tensor<double, term_size>;

/// The determinant of the M x M matrix `e(rows[i], cols[j])` by expansion by minors along
/// its first row, as cmpad's det_of_minor computes it.
template <std::size_t M, class Entry>
constexpr auto det_by_minors(const Entry& e, const std::array<int, M>& rows, const std::array<int, M>& cols) {
  if constexpr (M == 1) {
    return e(rows[0], cols[0]);
  } else {
    std::array<int, M - 1> below{};
    std::copy(rows.begin() + 1, rows.end(), below.begin());
    const auto cofactor = [&](std::size_t j) {
      std::array<int, M - 1> rest{};
      std::copy(cols.begin(), cols.begin() + j, rest.begin());
      std::copy(cols.begin() + j + 1, cols.end(), rest.begin() + j);
      return e(rows[0], cols[j]) * det_by_minors<M - 1>(e, below, rest);
    };
    auto sum = cofactor(0);
    for (std::size_t j = 1; j < M; ++j) sum = j % 2 ? sum - cofactor(j) : sum + cofactor(j);
    return sum;
  }
}

/// One term of the expansion: the sign (index 0 of `at`), the product of the picked entries
/// and the determinant of the minor (the indices of `a` after the sign).
constexpr auto term = [](const auto& a, const auto& at) {
  const auto v = calx::take(a, calx::slice<1, term_size>(at));
  auto picked = v(0);
  for (std::size_t k = 1; k < picks; ++k) picked = picked * v(k);
  const auto minor = [&](int r, int c) { return v(picks + static_cast<std::size_t>(r) * minor_size + static_cast<std::size_t>(c)); };
  return at(0) * picked * det_by_minors<minor_size>(minor, {0, 1, 2, 3}, {0, 1, 2, 3});
};
/// The sum of a batch of terms: the objective, over all of them.
constexpr auto sum_of_terms = [](const auto& a, const auto& terms) {
  return calx::sum(calx::vmap(term, calx::in_axes<calx::none, 0>)(a, terms));
};

struct state {
  int ell = 0;
  heap_tensor<matrix> a, gradient;
  std::vector<term_indices> chunk = std::vector<term_indices>(chunk_size);
  // The minor's indices in the last rows after the columns in a mask are picked.
  std::vector<std::array<double, minor_size * minor_size>> minor_at;
  double value = 0;
};

state read(const json& input) {
  state s;
  const std::size_t ell = input.at("ell").get<std::size_t>();
  const json& a = input.at("A");
  if (ell == 0 || ell > max_ell)
    throw std::invalid_argument("calx's det is compiled for ell = 1 .. " + std::to_string(max_ell) + "; the input has ell = " +
                                std::to_string(ell) + " (raise max_ell in bench/gradbench/det.cpp)");
  if (a.size() != ell * ell)
    throw std::invalid_argument("det: A has " + std::to_string(a.size()) + " entries, not ell^2 = " + std::to_string(ell * ell));
  s.ell = static_cast<int>(ell);
  for (std::size_t i = 0; i < ell * ell; ++i) (*s.a)[i] = a[i].get<double>();
  (*s.a)[one_at] = 1.0;
  (*s.a)[zero_at] = 0.0;
  const int p = std::max(s.ell - static_cast<int>(minor_size), 0);
  const int border = static_cast<int>(minor_size) - (s.ell - p);  // rows of identity (ell < 4)
  s.minor_at.resize(std::size_t{1} << ell);
  for (unsigned used = 0; used < s.minor_at.size(); ++used) {
    if (std::popcount(used) != p) continue;
    std::array<int, minor_size> cols{};
    for (int c = 0, n = border; c < s.ell; ++c)
      if (!(used >> c & 1u)) cols[static_cast<std::size_t>(n++)] = c;
    for (int r = 0; r < static_cast<int>(minor_size); ++r)
      for (int c = 0; c < static_cast<int>(minor_size); ++c) {
        const bool bordered = r < border || c < border;
        const std::size_t at = bordered ? (r == c ? one_at : zero_at)
                                        : static_cast<std::size_t>((p + r - border) * s.ell + cols[static_cast<std::size_t>(c)]);
        s.minor_at[used][static_cast<std::size_t>(r) * minor_size + static_cast<std::size_t>(c)] = static_cast<double>(at);
      }
  }
  return s;
}

/// Calls `f(count)` on each chunk of the expansion's terms written into s.chunk: the picks
/// walk the columns as the recursion does (the j-th column left flips the sign for odd j).
template <class F>
void each_chunk(state& s, F f) {
  const int ell = s.ell;
  const int p = std::max(ell - static_cast<int>(minor_size), 0);
  std::size_t count = 0;
  term_indices t{};
  for (std::size_t k = 0; k < picks; ++k) t[1 + k] = static_cast<double>(one_at);
  const auto walk = [&](const auto& self, int row, unsigned used, double sign) -> void {
    if (row == p) {
      t[0] = sign;
      const auto& minor = s.minor_at[used];
      std::copy(minor.begin(), minor.end(), &t[1 + picks]);
      s.chunk[count++] = t;
      if (count == chunk_size) {
        f(count);
        count = 0;
      }
      return;
    }
    for (int c = 0, j = 0; c < ell; ++c) {
      if (used >> c & 1u) continue;
      t[1 + static_cast<std::size_t>(row)] = static_cast<double>(row * ell + c);
      self(self, row + 1, used | 1u << c, j++ % 2 ? -sign : sign);
    }
  };
  walk(walk, 0, 0u, 1.0);
  if (count != 0) f(count);
}

std::unique_ptr<evaluation> prepare(bool gradient, const json& input) {
  if (!gradient)
    return make_evaluation(
        read(input),
        [](state& s) {
          s.value = 0;
          each_chunk(s, [&](std::size_t count) {
            const std::span terms(s.chunk.data(), count);
            s.value += calx::trace(sum_of_terms, *s.a, terms)(*s.a, terms);
          });
        },
        [](const state& s) { return json(s.value); });
  return make_evaluation(
      read(input),
      [](state& s) {
        std::fill(s.gradient->data(), s.gradient->data() + matrix::size, 0.0);
        each_chunk(s, [&](std::size_t count) {
          const matrix g = calx::grad(sum_of_terms)(*s.a, std::span(s.chunk.data(), count));
          for (std::size_t e = 0; e < matrix::size; ++e) (*s.gradient)[e] += g[e];
        });
      },
      [](const state& s) {
        const auto n = static_cast<std::size_t>(s.ell) * static_cast<std::size_t>(s.ell);
        return json(std::vector<double>(s.gradient->data(), s.gradient->data() + n));
      });
}

}  // namespace

void add_det(registry& r) {
  r["det"]["primal"] = [](const json& input) { return prepare(false, input); };
  r["det"]["gradient"] = [](const json& input) { return prepare(true, input); };
}

}  // namespace calx_gradbench
