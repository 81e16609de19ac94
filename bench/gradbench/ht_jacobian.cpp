/// @file bench/gradbench/ht_jacobian.cpp
/// @brief ht's Jacobian (ht.hpp): each chunk's rows, in each correspondence's own u (the
/// complicated variant) and in theta, written as GradBench's `manual` writes them.
#include "ht.hpp"

namespace calx_gradbench::ht {

std::unique_ptr<evaluation> prepare_jacobian(const json& input) {
  struct out_state {
    state s;
    std::vector<double> rows;  // 3c rows of 26 or 28
    heap_tensor<calx::tensor<double, 3, chunk_size, params>> d_theta;
    heap_tensor<calx::tensor<double, 3, chunk_size, 2>> d_u;
  };
  out_state o{read(input), {}, {}, {}};
  const std::size_t cols = params + (o.s.complicated ? 2 : 0);
  o.rows.resize(3 * o.s.c * cols);
  return make_evaluation(
      std::move(o),
      [cols](out_state& o) {
        state& s = o.s;
        each_chunk(s, [&](std::size_t begin, std::size_t count) {
          if (s.complicated) {
            complicated_jacobian(s.h, s.gathered, *o.d_theta);
            complicated_jacobian_us(s.h, s.gathered, *o.d_u);
          } else {
            simple_jacobian(s.h, s.gathered, *o.d_theta);
          }
          // Row 3i + j of the Jacobian is error j of correspondence i: entry (j, i) of the chunk's.
          for (std::size_t i = 0; i < count; ++i)
            for (std::size_t j = 0; j < 3; ++j) {
              const std::size_t at = j * chunk_size + i;
              double* row = o.rows.data() + (3 * (begin + i) + j) * cols;
              if (s.complicated) row = std::copy(o.d_u->data() + 2 * at, o.d_u->data() + 2 * at + 2, row);  // u's first
              std::copy(o.d_theta->data() + params * at, o.d_theta->data() + params * (at + 1), row);
            }
        });
      },
      [cols](const out_state& o) {
        json rows = json::array();
        for (std::size_t r = 0; r < 3 * o.s.c; ++r)
          rows.push_back(std::vector<double>(o.rows.data() + r * cols, o.rows.data() + (r + 1) * cols));
        return rows;
      });
}

}  // namespace calx_gradbench::ht
