/// @file detail/exec/simd_executor.hpp
/// @brief Runs a program with batched nodes over a runtime batch: the pre stage once on
/// scalars, the loop stage on xsimd batches (one sample per lane; unbatched values
/// splatted; the last, partial group of lanes copied into a full one), the post stage once.
/// Work is split into fixed chunks of samples; each chunk's reductions are summed
/// separately and the chunk sums are added in order, so results do not depend on the
/// number of threads. Nothing is allocated inside the loop. Large result structures are
/// written sample by sample after each group (detail/exec/staged_outputs.hpp).
#ifndef CALX_DETAIL_EXEC_SIMD_EXECUTOR_HPP
#define CALX_DETAIL_EXEC_SIMD_EXECUTOR_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/exec/io.hpp>
#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/exec/plan.hpp>
#include <calx/detail/exec/scalar_stages.hpp>
#include <calx/detail/exec/staged_outputs.hpp>
#include <calx/detail/exec/tensor_statement.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/static_for.hpp>

#include <calx/simd/math.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Samples per chunk: a multiple of every lane count, large enough to amortise the
/// per-chunk work, small enough to balance threads.
inline constexpr std::size_t batch_chunk = 2048;

/// `Source` run over a batch of `T` on xsimd architecture `Arch`. Its ops are built-ins, or
/// user ops with a scalar kernel that run lane by lane (the caller expands the others,
/// detail/call/run.hpp).
template <class Source, class T, class Arch>
struct batch_executor {
  static constexpr const auto& ir = materialized<Source>::value;
  static constexpr const auto& plan = planned<Source>::value;
  using IRT = typename materialized<Source>::ir_type;
  using B = xsimd::batch<T, Arch>;
  using M = xsimd::batch_bool<T, Arch>;
  static constexpr std::size_t W = B::size;
  static constexpr std::size_t R = static_cast<std::size_t>(plan.reductions);
  static_assert(batch_chunk % W == 0);

  using stages = scalar_stages<Source, T>;
  using pre_regs = typename stages::pre_regs;
  using post_regs = typename stages::post_regs;
  using loop_regs = registers<B, M, stages::template nreal<1>, stages::template nmask<1>>;

  /// Result structures of a known size (S) are written sample by sample from a stage, after
  /// each group (detail/exec/staged_outputs.hpp), where that pays.
  static constexpr output_staging<IRT::size> staging = stage_outputs(ir, plan, sizeof(B), sizeof(T));
  template <bool Contiguous, std::size_t S>
  static constexpr bool staged = !Contiguous && S != 0 && staging.used;

  // ---- the loop stage ----------------------------------------------------------------
  /// Reads operands of loop nodes: loop registers, or pre values splatted.
  struct loop_reader {
    const pre_regs& pre;
    const loop_regs& loop;
    template <int Id>
    CALX_INLINE auto operator()(operand_c<Id>, int e) const {
      const int s = plan.slot[Id] + e;
      if constexpr (plan.stage_of[Id] == stage::loop) {
        if constexpr (ir.nodes[Id].kind == value_kind::boolean)
          return loop.mask[s];
        else
          return loop.real[s];
      } else if constexpr (ir.nodes[Id].kind == value_kind::boolean) {
        return M(pre.mask[s]);
      } else {
        return B(pre.real[s]);
      }
    }
    /// Where operand Id's elements are, for an op's results kernel: a loop value's element e
    /// is the W lanes at e * W (a batch in memory), a pre value's the number at e.
    template <int Id>
    CALX_INLINE const T* address(operand_c<Id>) const {
      const int s = plan.slot[Id];
      if constexpr (plan.stage_of[Id] == stage::loop)
        return reinterpret_cast<const T*>(&loop.real[s]);
      else
        return &pre.real[s];
    }
    template <int Id>
    static constexpr bool batched(operand_c<Id>) {
      return plan.stage_of[Id] == stage::loop;
    }
  };

  /// Copies samples [i, i + count) of a batched input into `lanes` (W of them); missing
  /// lanes repeat the last sample.
  static CALX_INLINE void gather(T* lanes, const input_view<T>& v, std::size_t i, std::size_t count) {
    for (std::size_t l = 0; l < W; ++l)
      std::memcpy(&lanes[l], v.base + (i + (l < count ? l : count - 1)) * v.stride, sizeof(T));
  }

  /// Lanes of samples [i, i + W) of a batched input.
  template <bool Contiguous>
  static CALX_INLINE B load(const input_view<T>& v, std::size_t i) {
    if constexpr (Contiguous) {
      return B::load_unaligned(reinterpret_cast<const T*>(v.base) + i);
    } else {
      alignas(64) T lanes[W];
      gather(lanes, v, i, W);
      return B::load_aligned(lanes);
    }
  }

  /// Writes lanes `v` of samples [i, i + W) to output column `c`. `S`: the stride of every
  /// column when the caller knows it from the destination's type (0: read it from `c`);
  /// constant, it makes the stores fixed offsets from one address.
  template <bool Contiguous, std::size_t S>
  static CALX_INLINE void store(const B& v, const output_view<T>& c, std::size_t i) {
    if constexpr (Contiguous) {
      v.store_unaligned(c.column + i);
    } else {  // a column of structures (every element of a sample's std::array, ...)
      alignas(64) T lanes[W];
      v.store_aligned(lanes);
      if constexpr (S != 0) {
        unsigned char* first = reinterpret_cast<unsigned char*>(c.column) + i * S;
        for (std::size_t l = 0; l < W; ++l) std::memcpy(first + l * S, &lanes[l], sizeof(T));
      } else {  // a rolled loop: unrolled with a stride in a register, it measured slower
        for (std::size_t l = 0; l < W; ++l) c.at(i + l) = lanes[l];
      }
    }
  }

  /// Writes element e of loop node J: to its register if anything reads it, and to the
  /// column of each output it is, as soon as it is computed (a register file holding every
  /// output until the end of the group would outgrow L1).
  template <std::size_t J, bool Contiguous, std::size_t S>
  struct loop_writer {
    loop_regs& loop;
    const output_view<T>* out;
    std::size_t i;
    B* stage;
    template <int K>
    CALX_INLINE void to_outputs(int e, const B& v) const {
      if constexpr (K >= 0) {
        store<Contiguous, S>(v, out[ir.output_offset[K] + static_cast<std::size_t>(e)], i);
        to_outputs<plan.next_output[K]>(e, v);
      }
    }
    template <class V>
    CALX_INLINE void operator()(int e, const V& v) const {
      if constexpr (plan.slot[J] >= 0) {
        if constexpr (ir.nodes[J].kind == value_kind::boolean)
          loop.mask[plan.slot[J] + e] = v;
        else
          loop.real[plan.slot[J] + e] = v;
      }
      if constexpr (plan.first_output[J] < 0 || (staged<Contiguous, S> && staging.outer[J])) {
      } else if constexpr (staged<Contiguous, S>) {  // one copy for all its outputs
        stage[staging.at[J] + e] = v;
      } else {
        to_outputs<plan.first_output[J]>(e, v);
      }
    }
    /// Where node J's elements go (its registers, a batch each), for an op's results kernel.
    CALX_INLINE T* address() const {
      static_assert(plan.slot[J] >= 0, "calx internal: a results kernel's node without registers");
      return reinterpret_cast<T*>(&loop.real[plan.slot[J]]);
    }
  };

  /// One full group of lanes, samples [i, i + W): every loop node, each output stored as it
  /// is computed. Forced inline: an out-of-line body would keep the loop's registers in
  /// memory. (Each node's statement is written in the lambda, not in a function of its own:
  /// a function per node and variant costs compile time.)
  template <bool Contiguous, std::size_t S>
  static CALX_INLINE void lanes(loop_regs& loop, B* acc, const pre_regs& pre, const input_view<T>* in,
                                const output_view<T>* out, std::size_t i, B* stage) {
    static_for<IRT::size>([&]<std::size_t J>(std::integral_constant<std::size_t, J>) CALX_INLINE_LAMBDA {
      constexpr node n = ir.nodes[J];
      if constexpr (plan.reduction[J] >= 0) {
        for (int e = 0; e < n.size(); ++e) acc[plan.reduction[J] + e] += loop_reader{pre, loop}(operand_c<ir.operand(J, 0)>{}, e);
      } else if constexpr (plan.stage_of[J] != stage::loop) {
      } else if constexpr (n.op().builtin == builtin_code::input) {
        const loop_writer<J, Contiguous, S> put{loop, out, i, stage};
        for (int e = 0; e < n.size(); ++e)
          put(e, load<Contiguous>(in[ir.input_offset[n.index()] + static_cast<std::size_t>(e)], i));
      } else {
        if constexpr (staged<Contiguous, S> && staging.outer[J]) {  // its operands, for the rows at the write
          constexpr int a = ir.operand(J, 0), b = ir.operand(J, 1);
          const loop_reader get{pre, loop};
          for (int e = 0; e < ir.nodes[a].size(); ++e) stage[staging.at[J] + e] = get(operand_c<a>{}, e);
          for (int e = 0; e < ir.nodes[b].size(); ++e) stage[staging.at[J] + ir.nodes[a].size() + e] = get(operand_c<b>{}, e);
        }
        if constexpr (!(staged<Contiguous, S> && staging.outer[J] && plan.slot[J] < 0))
          plain_statement_of<ir, J>::template statement<ir, J>(loop_reader{pre, loop}, loop_writer<J, Contiguous, S>{loop, out, i, stage});
      }
    });
  }

  /// Which flat outputs the loop stage writes: the elements of its nodes that are outputs.
  static constexpr auto loop_outputs = [] {
    std::array<bool, IRT::output_count == 0 ? 1 : IRT::output_count> written{};
    for (std::size_t j = 0; j < IRT::size; ++j)
      if (plan.stage_of[j] == stage::loop && plan.reduction[j] < 0)
        for (int k = plan.first_output[j]; k >= 0; k = plan.next_output[static_cast<std::size_t>(k)])
          for (int e = 0; e < ir.nodes[j].size(); ++e)
            written[ir.output_offset[static_cast<std::size_t>(k)] + static_cast<std::size_t>(e)] = true;
    return written;
  }();

  /// The last, partial group, samples [i, i + count) with count < W: its inputs copied into a
  /// full group of lanes (missing lanes repeat the last sample), run as a full contiguous
  /// group, its lanes that are samples copied out and added to the sums. One variant of the
  /// group's code: a second, masked one doubled the compile time of vmap's code.
  static CALX_INLINE void tail(loop_regs& loop, B* acc, const pre_regs& pre, const input_view<T>* in,
                               const output_view<T>* out, std::size_t i, std::size_t count) {
    constexpr std::size_t NI = IRT::input_count == 0 ? 1 : IRT::input_count;
    constexpr std::size_t NO = IRT::output_count == 0 ? 1 : IRT::output_count;
    alignas(64) T in_lanes[NI][W];
    alignas(64) T out_lanes[NO][W];
    std::array<input_view<T>, NI> tin;
    std::array<output_view<T>, NO> tout;
    std::copy_n(in, IRT::input_count, tin.begin());
    static_for<IRT::input_leaves>([&]<std::size_t K>(std::integral_constant<std::size_t, K>) CALX_INLINE_LAMBDA {
      if constexpr (ir.nodes[ir.inputs[K]].batched)
        for (std::size_t e = ir.input_offset[K]; e < ir.input_offset[K + 1]; ++e) {
          gather(in_lanes[e], in[e], i, count);
          tin[e].base = reinterpret_cast<const unsigned char*>(in_lanes[e]);
          tin[e].stride = sizeof(T);
        }
    });
    for (std::size_t k = 0; k < IRT::output_count; ++k) tout[k] = output_view<T>{out_lanes[k], sizeof(T), out[k].scalar};
    B group[R == 0 ? 1 : R];
    for (auto& g : group) g = B(T(0));
    lanes<true, 0>(loop, group, pre, tin.data(), tout.data(), 0, nullptr);
    for (std::size_t k = 0; k < IRT::output_count; ++k)
      if (loop_outputs[k])
        for (std::size_t l = 0; l < count; ++l) out[k].at(i + l) = out_lanes[k][l];
    if constexpr (R > 0) {
      alignas(64) T mask_lanes[W];
      for (std::size_t l = 0; l < W; ++l) mask_lanes[l] = l < count ? T(1) : T(0);
      const M samples = B::load_aligned(mask_lanes) != B(T(0));
      for (std::size_t r = 0; r < R; ++r) acc[r] += xsimd::select(samples, group[r], B(T(0)));
    }
  }

  /// `x` read by a load of its own. The caller has just written the views field by field;
  /// copied whole, they became one 64-byte load of several such stores, which cannot take
  /// its data from the store buffer: that stall was half of a 16-sample call (7 of 15 ns).
  /// The empty asm keeps the compiler from merging the loads again.
  template <class X>
  static CALX_INLINE X scalar_load(const X& x) {
#if defined(__GNUC__) || defined(__clang__)
    if constexpr (std::is_floating_point_v<X>) {
      using U = std::conditional_t<sizeof(X) == 4, std::uint32_t, std::uint64_t>;
      U bits = std::bit_cast<U>(x);
      asm("" : "+r"(bits));
      return std::bit_cast<X>(bits);
    } else {
      X v = x;
      asm("" : "+r"(v));
      return v;
    }
#else
    return x;
#endif
  }

  /// Samples [begin, end), one group of lanes at a time, the last one padded; writes each
  /// chunk's sums to `partial`.
  template <bool Contiguous, std::size_t S>
  static CALX_INLINE void chunk(const pre_regs& pre_in, const input_view<T>* in_in, const output_view<T>* out_in,
                                std::size_t begin, std::size_t end, T* partial) {
    // Local copies whose addresses do not escape: stores to the output columns (through
    // intrinsics, which may alias anything) cannot change them, so the compiler keeps
    // splatted constants and column pointers in registers.
    const pre_regs pre = pre_in;
    std::array<input_view<T>, IRT::input_count == 0 ? 1 : IRT::input_count> in;
    std::array<output_view<T>, IRT::output_count == 0 ? 1 : IRT::output_count> out;
    for (std::size_t k = 0; k < IRT::input_count; ++k)
      in[k] = input_view<T>{scalar_load(in_in[k].base), scalar_load(in_in[k].stride), scalar_load(in_in[k].value)};
    for (std::size_t k = 0; k < IRT::output_count; ++k)
      out[k] = output_view<T>{scalar_load(out_in[k].column), scalar_load(out_in[k].stride), scalar_load(out_in[k].scalar)};
    B acc[R == 0 ? 1 : R];
    for (auto& a : acc) a = B(T(0));
    loop_regs loop;
    std::size_t i = begin;
    if constexpr (staged<Contiguous, S>) {
      B stage[staging.batches];
      const auto runs = adjacent_leaves<ir, S>(out.data());
      for (; i + W <= end; i += W) {
        lanes<false, S>(loop, acc, pre, in.data(), out.data(), i, stage);
        write_staged<ir, staging, S>(stage, out.data(), runs.data(), i);
      }
    } else {
      // A contiguous group's stores do not depend on S: one variant for every S.
      for (; i + W <= end; i += W) lanes<Contiguous, Contiguous ? 0 : S>(loop, acc, pre, in.data(), out.data(), i, nullptr);
    }
    if (i < end) tail(loop, acc, pre, in.data(), out.data(), i, end - i);
    for (std::size_t r = 0; r < R; ++r) partial[r] = xsimd::hadd(acc[r]);
  }

  /// A chunk as a function of its own, for the threads and the general path.
  template <bool Contiguous, std::size_t S>
  [[gnu::noinline]] static void run_chunk(const pre_regs& pre, const input_view<T>* in, const output_view<T>* out,
                                          std::size_t begin, std::size_t end, T* partial) {
    chunk<Contiguous, S>(pre, in, out, begin, end, partial);
  }

  template <std::size_t S>
  static void run_chunk(bool contiguous, const pre_regs& pre, const input_view<T>* in, const output_view<T>* out,
                        std::size_t begin, std::size_t end, T* partial) {
    if constexpr (S == 0 || S == sizeof(T)) {
      if (contiguous) return run_chunk<true, S>(pre, in, out, begin, end, partial);
    }
    run_chunk<false, S>(pre, in, out, begin, end, partial);
  }

  /// Evaluates the program for `batch` samples using up to `threads` threads. Inlined into
  /// the caller: a batch of one chunk with contiguous columns (the common small call) runs
  /// right there, with no function call, thread or allocation, as a hand-written loop would.
  /// `S`: the stride in bytes of every output column, where the destination's type fixes it
  /// (one range of result structures: their size), else 0.
  template <std::size_t S = 0>
  static CALX_INLINE void run(const input_view<T>* in, const output_view<T>* out, std::size_t batch,
                              unsigned threads) {
    pre_regs pre;
    post_regs post;
    stages::template run_scalar_stage<stage::pre>(pre, post, in, nullptr, batch);
    // One fast path: every batched input and every output column contiguous; otherwise
    // loads and stores go element by element with their strides.
    bool contiguous = true;
    // Leaf by leaf with constant bounds, so that a small call's check folds to a few
    // compares (reading the IR's lists at run time cost 1.6 ns a call; a constant array of
    // flags per element, compile time in proportion to the tensors' sizes).
    static_for<IRT::input_leaves>([&]<std::size_t K>(std::integral_constant<std::size_t, K>) CALX_INLINE_LAMBDA {
      if constexpr (ir.nodes[ir.inputs[K]].batched)
        for (std::size_t e = ir.input_offset[K]; e < ir.input_offset[K + 1]; ++e)
          contiguous = contiguous && in[e].stride == sizeof(T);
    });
    for (std::size_t k = 0; k < IRT::output_count; ++k)
      if (out[k].column != nullptr) contiguous = contiguous && out[k].stride == sizeof(T);
    if constexpr (S != 0 && S != sizeof(T)) contiguous = false;  // known: no contiguous code to compile
    T totals[R == 0 ? 1 : R] = {};
    if (batch <= batch_chunk) {  // one chunk: no threads, nothing allocated
      if constexpr (S == 0 || S == sizeof(T)) {
        if (contiguous)
          chunk<true, S>(pre, in, out, 0, batch, totals);
        else
          run_chunk<false, S>(pre, in, out, 0, batch, totals);
      } else {
        run_chunk<false, S>(pre, in, out, 0, batch, totals);
      }
    } else {
      run_chunks<S>(pre, in, out, batch, threads, contiguous, totals);
    }
    if constexpr (R > 0 || plan.slots[2][0] > 0 || plan.slots[2][1] > 0)
      stages::template run_scalar_stage<stage::post>(pre, post, in, totals, batch);
    stages::write_once(pre, post, out, batch);
  }

  /// More than one chunk: split over threads; the chunks' sums added in chunk order.
  template <std::size_t S>
  [[gnu::noinline]] static void run_chunks(const pre_regs& pre, const input_view<T>* in, const output_view<T>* out,
                                           std::size_t batch, unsigned threads, bool contiguous, T* totals) {
    const std::size_t chunks = (batch + batch_chunk - 1) / batch_chunk;
    std::vector<T> partial(chunks * R);  // allocated once, before the loop
    auto work = [&](std::size_t c0, std::size_t c1) {
      for (std::size_t c = c0; c < c1; ++c) {
        const std::size_t b = c * batch_chunk, e = std::min(batch, b + batch_chunk);
        run_chunk<S>(contiguous, pre, in, out, b, e, partial.data() + c * R);
      }
    };
    // Asked once per process: hardware_concurrency() reads /sys on every call.
    static const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t t = threads == 1 ? 1 : std::min<std::size_t>({threads == 0 ? hw : std::min(threads, hw), chunks});
    if (t <= 1) {
      work(0, chunks);
    } else {
      std::vector<std::jthread> pool;
      pool.reserve(t - 1);
      for (std::size_t k = 1; k < t; ++k) pool.emplace_back(work, chunks * k / t, chunks * (k + 1) / t);
      work(0, chunks / t);
    }  // jthreads join here
    for (std::size_t c = 0; c < chunks; ++c)
      for (std::size_t r = 0; r < R; ++r) totals[r] += partial[c * R + r];
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_SIMD_EXECUTOR_HPP
