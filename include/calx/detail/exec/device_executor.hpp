/// @file detail/exec/device_executor.hpp
/// @brief Runs a program with batched nodes over samples in device memory: the pre stage
/// once on the host, then one CUDA kernel, one sample per thread (detail/exec/
/// device_loop.hpp), reading and writing the caller's device buffers, on the caller's
/// stream. Sums over the batch: each block of `device_group` threads adds its samples'
/// terms by a fixed tree, then the group sums are added in sample order, eight at a time
/// into chunks of 2048 samples (the CPU executor's chunk), the chunks in order; the totals
/// come back to the host for the post stage. Nothing is allocated per call but that
/// scratch (stream-ordered, from CUDA's pool) when the program sums over the batch.
/// With CALX_DEVICE_ON_HOST the same steps run serially on the host.
#ifndef CALX_DETAIL_EXEC_DEVICE_EXECUTOR_HPP
#define CALX_DETAIL_EXEC_DEVICE_EXECUTOR_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/device_ir.hpp>
#include <calx/detail/exec/device_loop.hpp>
#include <calx/detail/exec/device_memory.hpp>
#include <calx/detail/exec/io.hpp>
#include <calx/detail/exec/plan.hpp>
#include <calx/detail/exec/scalar_stages.hpp>
#include <calx/detail/ir/graph.hpp>

#include <cstddef>
#include <string>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Group sums per chunk: 2048 samples, as the CPU executor's `batch_chunk`.
inline constexpr std::size_t device_groups_per_chunk = 8;

/// v[0], v[stride], ... v[(count - 1) * stride] added in that order.
template <class T>
CALX_HOST_DEVICE inline T add_in_order(const T* v, std::size_t count, std::size_t stride) {
  T s = T(0);
  for (std::size_t k = 0; k < count; ++k) s += v[k * stride];
  return s;
}

/// Sum r of chunk c: its groups' sums (`R` per group in `partial`) added in order.
template <class T>
CALX_HOST_DEVICE inline T chunk_sum(const T* partial, std::size_t groups, std::size_t R, std::size_t c,
                                    std::size_t r) {
  const std::size_t first = c * device_groups_per_chunk;
  const std::size_t count = groups - first < device_groups_per_chunk ? groups - first : device_groups_per_chunk;
  return add_in_order(partial + first * R + r, count, R);
}

/// Stops compilation naming the first op of `Source` that device code cannot run: a call,
/// in a constant expression, to `device_code_needs_a_builtin_op_or_op_traits_decomposition_for<Op>`.
template <class Source>
constexpr int name_the_op_without_device_kernel() {
  constexpr const auto& r = materialized<Source>::value;
  for (std::size_t j = 0; j < r.nodes.size(); ++j)
    if (device_op_index(r.nodes[j].op) < 0) {  // as device_kernels_found
      r.nodes[j].op().extra().no_device_kernel();
      break;
    }
  return 0;
}
template <class Source>
constexpr void report_op_without_device_kernel() {
  [[maybe_unused]] constexpr int op_without_a_device_kernel = name_the_op_without_device_kernel<Source>();
}

#if defined(CALX_DEVICE_BACKEND_CUDA)
/// One thread per sample; each block adds its samples' terms of every sum by the tree.
template <class Key, class T>
__global__ void __launch_bounds__(device_group)
    sample_kernel(const __grid_constant__ typename device_loop<&decoded_ir<Key>::value, &decoded_ir<Key>::plan, T>::params p) {
  using Loop = device_loop<&decoded_ir<Key>::value, &decoded_ir<Key>::plan, T>;
  constexpr std::size_t R = Loop::reductions;
  const std::size_t t = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * device_group + t;
  T terms[R == 0 ? 1 : R] = {};
  if (i < p.batch) Loop::sample(p, i, terms);
  if constexpr (R > 0) {
    __shared__ T v[device_group];
    for (std::size_t r = 0; r < R; ++r) {
      v[t] = terms[r];
      __syncthreads();
      for (std::size_t s = device_group / 2; s > 0; s /= 2) {
        group_tree_step(v, s, t);
        __syncthreads();
      }
      if (t == 0) p.partial[blockIdx.x * R + r] = v[0];
      __syncthreads();
    }
  }
}

/// Thread (chunk c, sum r): the chunk's group sums in order.
template <class T>
__global__ void chunk_kernel(const T* partial, std::size_t groups, std::size_t R, T* chunks) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t c = k / R, r = k % R;
  if (c * device_groups_per_chunk >= groups) return;
  chunks[c * R + r] = chunk_sum(partial, groups, R, c, r);
}

/// Thread r: sum r's chunk sums in chunk order.
template <class T>
__global__ void total_kernel(const T* chunks, std::size_t count, std::size_t R, T* totals) {
  const std::size_t r = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < R) totals[r] = add_in_order(chunks + r, count, R);
}

/// Broadcasts `v` into a column (an output computed after the loop, kept per sample).
template <class T>
__global__ void fill_kernel(output_view<T> column, T v, std::size_t batch) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < batch) column.at(i) = v;
}

/// Launches sample_kernel for the IR whose integers are `C...`, spelled here with the
/// integers themselves: nvcc writes a kernel's template arguments into the host stub as the
/// launch spells them, and a spelling through an alias of the program's type (a typedef is
/// kept through deduction of a type parameter) would name the user's lambda.
template <class T, long long... C, class Params>
void launch_samples(ir_key<C...>, const Params& p, std::size_t groups, cudaStream_t stream) {
  sample_kernel<ir_key<C...>, T><<<static_cast<unsigned>(groups), device_group, 0, stream>>>(p);
}

inline unsigned blocks_for(std::size_t n, std::size_t per_block) {
  return static_cast<unsigned>((n + per_block - 1) / per_block);
}
#endif

/// `Source` run over device memory for a batch of `T`; its ops are built-ins (the caller
/// expands the others and reports those that cannot be).
template <class Source, class T>
struct device_executor {
  using key = ir_key_t<Source>;  // the IR as integers: see detail/exec/device_ir.hpp
  using loop = device_loop<&decoded_ir<key>::value, &decoded_ir<key>::plan, T>;
  using stages = scalar_stages<Source, T>;
  static constexpr const auto& ir = materialized<Source>::value;
  static constexpr const auto& plan = planned<Source>::value;
  static constexpr std::size_t R = loop::reductions;

  /// Runs the batch on stream `s`. Returns once the kernel is queued, or, where the
  /// program sums over the batch or returns a value once, once those values are on the host.
  static void run(const input_view<T>* in, const output_view<T>* out, std::size_t batch, stream_handle s,
                  const char* api) {
    typename loop::params p{};
    typename stages::post_regs post;
    stages::template run_scalar_stage<stage::pre>(p.pre, post, in, nullptr, batch);
    for (std::size_t k = 0; k < materialized<Source>::ir_type::input_count; ++k) p.in[k] = in[k];
    for (std::size_t k = 0; k < materialized<Source>::ir_type::output_count; ++k) p.out[k] = out[k];
    p.batch = batch;
    T totals[R == 0 ? 1 : R] = {};
#if defined(CALX_DEVICE_BACKEND_CUDA) || defined(CALX_DEVICE_BACKEND_HOST)
    const std::size_t groups = (batch + device_group - 1) / device_group;
    const std::size_t chunks = (groups + device_groups_per_chunk - 1) / device_groups_per_chunk;
    if (batch > 0) {
      if constexpr (R > 0) {
        // Scratch: the group sums, the chunk sums, the totals.
        struct scratch_memory {  // freed on the way out, a CUDA error's exception included
          void* at;
          stream_handle s;
          ~scratch_memory() { device_free(at, s, true); }
        } memory{device_allocate((groups + chunks + 1) * R * sizeof(T), s, true), s};
        T* scratch = static_cast<T*>(memory.at);
        p.partial = scratch;
        launch(p, groups, chunks, scratch + groups * R, scratch + (groups + chunks) * R, s, api);
        device_copy_back(totals, scratch + (groups + chunks) * R, R * sizeof(T), s);
      } else {
        launch(p, groups, chunks, nullptr, nullptr, s, api);
      }
    }
#endif  // without a backend, vmap refuses device spans before calling this
    if constexpr (R > 0 || plan.slots[2][0] > 0 || plan.slots[2][1] > 0)
      stages::template run_scalar_stage<stage::post>(p.pre, post, in, totals, batch);
    stages::template write_once<false>(p.pre, post, out, batch);
    fill_post_columns(p.pre, post, out, batch, s, api);
  }

 private:
  static void launch(const typename loop::params& p, std::size_t groups, std::size_t chunks, T* chunk_sums,
                     T* totals, stream_handle s, const char* api) {
#if defined(CALX_DEVICE_BACKEND_CUDA)
    const cudaStream_t stream = cuda_stream(s);
    launch_samples<T>(key{}, p, groups, stream);
    if constexpr (R > 0) {
      chunk_kernel<T><<<blocks_for(chunks * R, 128), 128, 0, stream>>>(p.partial, groups, R, chunk_sums);
      total_kernel<T><<<blocks_for(R, 128), 128, 0, stream>>>(chunk_sums, chunks, R, totals);
    }
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
      throw std::runtime_error(std::string(api) + ": CUDA kernel launch failed (" + std::to_string(groups) +
                               " blocks of " + std::to_string(device_group) + " threads for " +
                               std::to_string(p.batch) + " samples): " + cudaGetErrorString(e));
#elif defined(CALX_DEVICE_BACKEND_HOST)
    (void)s;
    (void)api;
    // The kernels' work, block by block, thread by thread, in the order the device adds.
    std::vector<T> terms(device_group * (R == 0 ? 1 : R));
    std::vector<T> v(device_group);
    for (std::size_t g = 0; g < groups; ++g) {
      for (T& x : terms) x = T(0);
      for (std::size_t t = 0; t < device_group; ++t) {
        const std::size_t i = g * device_group + t;
        if (i < p.batch) loop::sample(p, i, terms.data() + t * (R == 0 ? 1 : R));
      }
      for (std::size_t r = 0; r < R; ++r) {
        for (std::size_t t = 0; t < device_group; ++t) v[t] = terms[t * R + r];
        p.partial[g * R + r] = group_sum(v.data());
      }
    }
    for (std::size_t c = 0; c < chunks && R > 0; ++c)
      for (std::size_t r = 0; r < R; ++r) chunk_sums[c * R + r] = chunk_sum(p.partial, groups, R, c, r);
    for (std::size_t r = 0; r < R; ++r) totals[r] = add_in_order(chunk_sums + r, chunks, R);
#else
    (void)p, (void)groups, (void)chunks, (void)chunk_sums, (void)totals, (void)s, (void)api;
#endif
  }

  /// Outputs computed after the loop (from sums) that the caller keeps per sample.
  static void fill_post_columns(const typename loop::pre_regs& pre, const typename stages::post_regs& post,
                                const output_view<T>* out, std::size_t batch, stream_handle s, const char* api) {
    static_for<materialized<Source>::ir_type::output_leaves>([&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
      constexpr int id = ir.outputs[K];
      if constexpr (plan.stage_of[id] == stage::post) {
        for (int e = 0; e < ir.nodes[id].size(); ++e) {
          const output_view<T>& column = out[ir.output_offset[K] + static_cast<std::size_t>(e)];
          if (column.column == nullptr || batch == 0) continue;
          const T v = typename stages::scalar_reader{pre, post}(operand_c<id>{}, e);
#if defined(CALX_DEVICE_BACKEND_CUDA)
          fill_kernel<T><<<blocks_for(batch, 256), 256, 0, cuda_stream(s)>>>(column, v, batch);
          cuda_check(cudaGetLastError(), api);
#else
          (void)s;
          (void)api;
          for (std::size_t i = 0; i < batch; ++i) column.at(i) = v;
#endif
        }
      }
    });
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_DEVICE_EXECUTOR_HPP
