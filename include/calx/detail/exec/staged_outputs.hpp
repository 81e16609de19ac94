/// @file detail/exec/staged_outputs.hpp
/// @brief Results written sample by sample: where `vmap(...).into(...)` writes a range of
/// result structures, the SIMD executor keeps a group's loop outputs (one sample per lane)
/// in a stage and, after the group, writes each sample's structure in the order of its
/// outputs, in whole vectors where a tensor's elements are adjacent. An outer product that
/// is an output (the gradient of a matrix in `matvec(w, x)`) is not staged: its two operands
/// are, and each sample's rows are formed at the write, `a[r]` times the vector `b`, as
/// a batched outer product over the samples writes them.
///
/// Why: a sample's structure of a few hundred numbers written lane by lane, in the order the
/// program computes it (a gradient comes out last result first), measured 2-4x slower than
/// the same bytes written in address order, one structure after the other (the memory
/// system streams ordered stores; docs/performance.md §6, "Per-sample MLP gradients").
#ifndef CALX_DETAIL_EXEC_STAGED_OUTPUTS_HPP
#define CALX_DETAIL_EXEC_STAGED_OUTPUTS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/io.hpp>
#include <calx/detail/exec/plan.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/static_for.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Where each loop output's lanes wait for the write: `at[j]` batches into the stage (-1:
/// none), the operands of an outer product (`outer[j]`: a, then b) in place of its elements.
template <std::size_t N>
struct output_staging {
  std::array<int, N == 0 ? 1 : N> at{};
  std::array<bool, N == 0 ? 1 : N> outer{};
  int batches = 0;
  bool used = false;
};

/// Smallest structure worth staging, in bytes per sample: below four cache lines the order
/// of the stores did not measure, and staging costs its copies.
inline constexpr std::size_t staging_min_bytes = 256;
/// Largest stage, in bytes (it stays in L1 with the group's registers).
inline constexpr std::size_t staging_max_bytes = 32768;

/// The staging of plan `p`'s loop outputs for lanes of `lane_bytes` (W * sizeof(T)) bytes
/// and numbers of `number_bytes`; `used` false where it does not pay or a loop output is a
/// mask.
template <class IR, class Plan>
constexpr output_staging<IR::size> stage_outputs(const IR& r, const Plan& p, std::size_t lane_bytes,
                                                 std::size_t number_bytes) {
  output_staging<IR::size> s;
  std::size_t written = 0;
  bool masks = false;
  for (std::size_t j = 0; j < IR::size; ++j) {
    s.at[j] = -1;
    if (p.stage_of[j] != stage::loop || p.reduction[j] >= 0 || p.first_output[j] < 0) continue;
    const node& n = r.nodes[j];
    masks = masks || n.kind != value_kind::real;
    s.at[j] = s.batches;
    s.outer[j] = outer_product(r, j);
    s.batches += s.outer[j] ? r.nodes[static_cast<std::size_t>(r.operand(j, 0))].size() +
                                  r.nodes[static_cast<std::size_t>(r.operand(j, 1))].size()
                            : n.size();
    for (int k = p.first_output[j]; k >= 0; k = p.next_output[static_cast<std::size_t>(k)])
      written += static_cast<std::size_t>(n.size());
  }
  s.used = !masks && written * number_bytes >= staging_min_bytes &&
           static_cast<std::size_t>(s.batches) * lane_bytes <= staging_max_bytes;
  return s;
}

/// Whether each output leaf of a loop node is one run of adjacent numbers in every result
/// structure (a tensor member: its elements' columns one number apart), so that a sample's
/// elements go out in whole vectors; else element by element.
template <const auto& IR, std::size_t S, class T>
CALX_INLINE std::array<bool, IR.output_leaves == 0 ? 1 : IR.output_leaves> adjacent_leaves(const output_view<T>* out) {
  std::array<bool, IR.output_leaves == 0 ? 1 : IR.output_leaves> runs{};
  for (std::size_t k = 0; k < IR.output_leaves; ++k) {
    const std::size_t o = IR.output_offset[k];
    bool adjacent = out[o].column != nullptr && out[o].stride == S;
    for (std::size_t e = o + 1; adjacent && e < IR.output_offset[k + 1]; ++e)
      adjacent = out[e].column == out[o].column + (e - o) && out[e].stride == S;
    runs[k] = adjacent;
  }
  return runs;
}

/// Elements e, e + 1, ... of one sample from a stage (element e + k is at v[k * W]): one
/// hardware gather where there is one (xsimd 8's own gather of floats on AVX-512 took its
/// generic path, an insert a lane, which made the write 1.5x slower than lane by lane).
template <class B, class T>
CALX_INLINE B sample_lanes(const T* v) {
  constexpr int W = static_cast<int>(B::size);
#if XSIMD_WITH_AVX512F
  if constexpr (std::is_base_of_v<xsimd::avx512f, typename B::arch_type>) {
    if constexpr (sizeof(T) == 4)
      return _mm512_i32gather_ps(_mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                                    _mm512_set1_epi32(W)),
                                 v, 4);
    else
      return _mm512_i64gather_pd(_mm512_mullo_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64(W)), v, 8);
  }
#endif
#if XSIMD_WITH_AVX2
  if constexpr (std::is_base_of_v<xsimd::avx2, typename B::arch_type> && W == 32 / static_cast<int>(sizeof(T))) {
    if constexpr (sizeof(T) == 4)
      return _mm256_i32gather_ps(v, _mm256_setr_epi32(0, W, 2 * W, 3 * W, 4 * W, 5 * W, 6 * W, 7 * W), 4);
    else
      return _mm256_i64gather_pd(v, _mm256_setr_epi64x(0, W, 2 * W, 3 * W), 8);
  }
#endif
  alignas(64) T lanes[W];
  for (int k = 0; k < W; ++k) lanes[k] = v[k * W];
  return B::load_aligned(lanes);
}

/// Writes the staged lanes of samples [i, i + B::size) to their structures (columns of
/// stride S), sample by sample, each in the order of its outputs.
template <const auto& IR, const auto& Staging, std::size_t S, class B, class T>
CALX_INLINE void write_staged(const B* stage, const output_view<T>* out, const bool* runs, std::size_t i) {
  constexpr int W = static_cast<int>(B::size);
  const T* lanes = reinterpret_cast<const T*>(stage);
  for (int l = 0; l < W; ++l) {
    static_for<IR.output_leaves>([&]<std::size_t K>(std::integral_constant<std::size_t, K>) CALX_INLINE_LAMBDA {
      constexpr auto j = static_cast<std::size_t>(IR.outputs[K]);
      if constexpr (Staging.at[j] >= 0) {
        constexpr std::size_t o = IR.output_offset[K];
        const std::size_t sample = i + static_cast<std::size_t>(l);
        const T* v = lanes + Staging.at[j] * W + l;  // element e of the sample: v[e * W]
        // The sample's first number, where the leaf is one run (S constant: fixed offsets).
        T* const d = runs[K] ? reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(out[o].column) + sample * S) : nullptr;
        const auto one_by_one = [&](int n, const auto& value) CALX_INLINE_LAMBDA {
          for (int e = 0; e < n; ++e)
            if (out[o + static_cast<std::size_t>(e)].column != nullptr) out[o + static_cast<std::size_t>(e)].at(sample) = value(e);
        };
        if constexpr (Staging.outer[j]) {
          constexpr int rows = IR.nodes[static_cast<std::size_t>(IR.operand(j, 0))].size();
          constexpr int cols = IR.nodes[static_cast<std::size_t>(IR.operand(j, 1))].size();
          constexpr int whole = cols / W;
          const T* b = v + rows * W;
          if (d != nullptr) {
            B bs[whole == 0 ? 1 : whole];
            for (int q = 0; q < whole; ++q) bs[q] = sample_lanes<B>(b + q * W * W);
            for (int r = 0; r < rows; ++r) {
              const T a = v[r * W];
              for (int q = 0; q < whole; ++q) (B(a) * bs[q]).store_unaligned(d + r * cols + q * W);
              for (int c = whole * W; c < cols; ++c) d[r * cols + c] = a * b[c * W];
            }
          } else {
            one_by_one(rows * cols, [&](int e) { return v[(e / cols) * W] * b[(e % cols) * W]; });
          }
        } else {
          constexpr int n = IR.nodes[j].size();
          if (d != nullptr) {
            // Constant bounds: with `e` running on from the first loop, g++ 12 warned of an
            // overflow of `e * W` in the second (-Waggressive-loop-optimizations).
            constexpr int whole = n / W * W;
            for (int e = 0; e < whole; e += W) sample_lanes<B>(v + e * W).store_unaligned(d + e);
            for (int e = whole; e < n; ++e) d[e] = v[e * W];
          } else {
            one_by_one(n, [&](int e) { return v[e * W]; });
          }
        }
      }
    });
  }
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_STAGED_OUTPUTS_HPP
