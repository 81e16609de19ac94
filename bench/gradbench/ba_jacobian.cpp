/// @file bench/gradbench/ba_jacobian.cpp
/// @brief ba's sparse Jacobian (ba.hpp): each observation's block by vmap(jacrev(...)),
/// written into GradBench's compressed rows.
#include "ba.hpp"

#include <array>
#include <span>
#include <tuple>

namespace calx_gradbench::ba {

namespace {
/// One residual's derivatives in a chunk of observations: in the camera, the point, the weight.
using row_block = std::tuple<calx::batched<camera>, calx::batched<point>, calx::batched<double>>;

/// The Jacobian of the 3p residuals (two per observation, then one weight error each) in
/// the 11n + 3m + p parameters (cameras, points, weights), by rows (cpp/gradbench/evals/ba.hpp's
/// SparseMat): 15 entries in each reprojection row, one in each weight row.
struct jacobian_state : state {
  std::vector<int> rows, cols;
  std::vector<double> vals;
  std::array<row_block, 2> blocks;  // the x and the y residual
  calx::batched<double> w_d;
};

constexpr std::size_t row_entries = cam_params + 3 + 1;

void write_blocks(jacobian_state& s, std::size_t begin, std::size_t count) {
  const int point_cols = static_cast<int>(cam_params * s.n), weight_cols = point_cols + static_cast<int>(3 * s.m);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = begin + k;
    const int cam = s.obs[2 * i], pt = s.obs[2 * i + 1];
    for (std::size_t r = 0; r < 2; ++r) {
      const auto& [d_cam, d_X, d_w] = s.blocks[r];
      const std::size_t row = 2 * i + r, at = row * row_entries;
      s.rows[row + 1] = static_cast<int>(at + row_entries);
      for (std::size_t j = 0; j < cam_params; ++j) {
        s.cols[at + j] = static_cast<int>(cam_params) * cam + static_cast<int>(j);
        s.vals[at + j] = d_cam[k][j];
      }
      for (std::size_t j = 0; j < 3; ++j) {
        s.cols[at + cam_params + j] = point_cols + 3 * pt + static_cast<int>(j);
        s.vals[at + cam_params + j] = d_X[k][j];
      }
      s.cols[at + cam_params + 3] = weight_cols + static_cast<int>(i);
      s.vals[at + cam_params + 3] = d_w[k];
    }
  }
}
}  // namespace

std::unique_ptr<evaluation> prepare_jacobian(const json& input) {
  jacobian_state s{read(input), {}, {}, {}, {}, {}};
  const std::size_t reproj_nonzeros = 2 * s.p * row_entries;
  s.rows.assign(3 * s.p + 1, 0);
  s.cols.resize(reproj_nonzeros + s.p);
  s.vals.resize(reproj_nonzeros + s.p);
  for (row_block& b : s.blocks) std::apply([](auto&... column) { (column.resize(chunk_size), ...); }, b);
  s.w_d.resize(s.p);
  return make_evaluation(
      std::move(s),
      [](jacobian_state& s) {
        each_chunk(s, [&](std::size_t begin, std::size_t count) {
          const auto first = [count](row_block& b) {
            auto& [d_cam, d_X, d_w] = b;
            return std::tuple{std::span(d_cam).first(count), std::span(d_X).first(count), std::span(d_w).first(count)};
          };
          calx::vmap(calx::jacrev(reprojection_error, calx::argnums<0, 1, 2>))
              .into(std::pair{first(s.blocks[0]), first(s.blocks[1])})(
                  std::span(s.chunk_cams).first(count), std::span(s.chunk_X).first(count),
                  std::span(s.w).subspan(begin, count), std::span(s.feats).subspan(begin, count));
          write_blocks(s, begin, count);
        });
        calx::vmap(calx::grad(weight_error)).into(std::span(s.w_d))(s.w);
        const int weight_cols = static_cast<int>(cam_params * s.n + 3 * s.m);
        const std::size_t reproj_nonzeros = 2 * s.p * row_entries;
        for (std::size_t i = 0; i < s.p; ++i) {
          s.rows[2 * s.p + i + 1] = static_cast<int>(reproj_nonzeros + i + 1);
          s.cols[reproj_nonzeros + i] = weight_cols + static_cast<int>(i);
          s.vals[reproj_nonzeros + i] = s.w_d[i];
        }
      },
      [](const jacobian_state& s) {
        // GradBench's form: the first 30 entries of each list and its last.
        constexpr std::size_t first = 2 * row_entries;
        const auto shown = [](const auto& v) {
          json a = json::array();
          for (std::size_t i = 0; i < first; ++i) a.push_back(v[i]);
          a.push_back(v.back());
          return a;
        };
        return json{{"rows", shown(s.rows)}, {"cols", shown(s.cols)}, {"vals", shown(s.vals)}};
      });
}

}  // namespace calx_gradbench::ba
