/// @file tests/_include/sum_check.hpp
/// @brief For the contraction tests (tests/tensor.contraction.cpp,
/// tests/tensor.fusion.stream.cpp): tensors filled with the deterministic samples of
/// vmap_support.hpp, and a result entry checked against a sum of terms added in long double.
#ifndef CALX_TESTS_SUM_CHECK_HPP
#define CALX_TESTS_SUM_CHECK_HPP

#include <calx/calx.hpp>

#include <_include/vmap_support.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>

namespace calx_test {

/// Every element e of `t` is `sample<T>(e, lo, hi, salt)`.
template <class T, std::size_t... D>
void fill_samples(calx::tensor<T, D...>& t, double lo, double hi, unsigned salt) {
  for (std::size_t e = 0; e < calx::tensor<T, D...>::size; ++e) t[e] = sample<T>(e, lo, hi, salt);
}

/// Entry `at` of a result, `got`, against the sum of `term(0 .. count)` added in long double:
/// within 4 roundings per term of the terms' magnitudes, `rounds` terms (each term is a
/// product of values that carry their own contraction's rounding; two contractions round
/// once per term each).
template <class T, class Term>
void check_sum(const char* what, std::size_t at, double got, std::size_t count, std::size_t rounds, const Term& term) {
  long double want = 0, magnitude = 0;
  for (std::size_t k = 0; k < count; ++k) want += term(k), magnitude += std::abs(term(k));
  INFO(what << " entry " << at << ": got " << got << ", want " << static_cast<double>(want));
  CHECK(std::abs(got - static_cast<double>(want)) <=
        4.0 * static_cast<double>(rounds) * std::numeric_limits<T>::epsilon() * static_cast<double>(magnitude + 1));
}

}  // namespace calx_test

#endif  // CALX_TESTS_SUM_CHECK_HPP
