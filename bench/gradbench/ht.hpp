/// @file bench/gradbench/ht.hpp
/// @brief GradBench's ht (evals/ht, from ADBench), the eval's input: theta, the hand model and
/// the correspondences, read from JSON (ht_objective.cpp) and gathered chunk by chunk into
/// the tensors the errors of ht_model.hpp take.
#ifndef CALX_BENCH_GRADBENCH_HT_HPP
#define CALX_BENCH_GRADBENCH_HT_HPP

#include "ht_model.hpp"
#include "protocol.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace calx_gradbench::ht {

/// The eval's input (theta, the model, the correspondences' vertices, points and u) and one
/// chunk of correspondences gathered from it.
struct state {
  bool complicated = false;
  std::size_t c = 0;
  hand h;
  std::vector<std::array<double, bones>> weights;  // each vertex's
  std::vector<std::array<double, 4>> rest;         // each vertex's rest position, homogeneous
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<double, 2>> us;
  std::vector<int> corners;  // each correspondence's vertex (simple) or 3 vertices (complicated)
  chunk gathered;
};

state read(const json& input);

/// Calls `f(begin, count)` for each chunk of correspondences after gathering it into the
/// chunk tensors.
template <class F>
void each_chunk(state& s, F f) {
  const std::size_t per = s.complicated ? 3 : 1;
  double* weights = s.complicated ? s.gathered.weights_3->data() : s.gathered.weights_1->data();
  double* rest = s.complicated ? s.gathered.rest_3->data() : s.gathered.rest_1->data();
  for (std::size_t begin = 0; begin < s.c; begin += chunk_size) {
    const std::size_t count = std::min(chunk_size, s.c - begin);
    for (std::size_t i = 0; i < chunk_size; ++i) {
      for (std::size_t k = 0; k < per; ++k) {
        // Columns past the last correspondence get zero weights: their errors are not read.
        const bool used = i < count;
        const auto v = used ? static_cast<std::size_t>(s.corners[per * (begin + i) + k]) : 0;
        for (std::size_t b = 0; b < bones; ++b) weights[(k * bones + b) * chunk_size + i] = used ? s.weights[v][b] : 0.0;
        for (std::size_t e = 0; e < 4; ++e) rest[(4 * k + e) * chunk_size + i] = s.rest[v][e];
      }
      if (i < count) {
        for (std::size_t e = 0; e < 3; ++e) (*s.gathered.points)[e * chunk_size + i] = s.points[begin + i][e];
        if (s.complicated)
          for (std::size_t e = 0; e < 2; ++e) (*s.gathered.us)[e * chunk_size + i] = s.us[begin + i][e];
      }
    }
    f(begin, count);
  }
}

std::unique_ptr<evaluation> prepare_objective(const json& input);
std::unique_ptr<evaluation> prepare_jacobian(const json& input);

}  // namespace calx_gradbench::ht

#endif
