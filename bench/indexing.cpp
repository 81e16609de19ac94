/// @file bench/indexing.cpp
/// @brief Indexing by runtime values against hand-written loops in the same binary and run,
/// one thread: 100 rows of a 544 x 3 tensor picked by a runtime index tensor (a hand-tracking
/// model's vertices, GradBench's ht), `calx::take` in a traced program against a loop that
/// copies the rows, and its vjp (the gradient of `sum(take(v, idx) * w)` in v, a
/// scatter-add: `calx::grad`) against a loop that zeroes the gradient and adds the rows of w.
/// Same inputs for both; each writes its result once into memory of its own (calx returns
/// it by value into a local, the hand loops fill a local array: the gather's left unset,
/// the gradient's zeroed). f32 and f64. Prints `ratio=` calx / hand (target <= 1.10).
///
///   bench_indexing --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"
#include "hand.hpp"

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

namespace {

using namespace calx_bench;

constexpr std::size_t vertices = 544, picked = 100;
using index_t = calx::tensor<int, picked>;

constexpr auto pick = [](const auto& v, const auto& idx) { return calx::take(v, idx); };
constexpr auto weighted = [](const auto& v, const auto& idx, const auto& w) { return calx::sum(calx::take(v, idx) * w); };

template <class T>
struct problem {
  calx::tensor<T, vertices, 3> v, grad;
  calx::tensor<T, picked, 3> w, rows;
  index_t idx;
  bool keep = false;  // the results kept, for the check (not while timed)
};

template <class T>
problem<T> make_problem() {
  problem<T> p;
  std::vector<T> x;
  fill_uniform(x, vertices * 3 + picked * 3, -1.0, 1.0, 11);
  for (std::size_t k = 0; k < vertices * 3; ++k) p.v[k] = x[k];
  for (std::size_t k = 0; k < picked * 3; ++k) p.w[k] = x[vertices * 3 + k];
  for (std::size_t k = 0; k < picked; ++k) p.idx[k] = static_cast<int>((97 * k + 13) % vertices);
  return p;
}

// Each side makes the result in memory of its own and writes it once: calx returns it by
// value (into a local), the hand loops fill a local tensor.
template <class T>
CALX_BENCH_INLINE void calx_pick(problem<T>& p) {
  static const auto program = calx::trace(pick, p.v, p.idx);
  const calx::tensor<T, picked, 3> rows = program(p.v, p.idx);
  benchmark::DoNotOptimize(rows.data());
  if (p.keep) p.rows = rows;
}
template <class T>
CALX_BENCH_INLINE void calx_vjp(problem<T>& p) {
  const calx::tensor<T, vertices, 3> grad = calx::grad(weighted)(p.v, p.idx, p.w);
  benchmark::DoNotOptimize(grad.data());
  if (p.keep) p.grad = grad;
}

/// An index clamped into [0, vertices) as calx::take clamps it (a negative one counts from
/// the end first), with the in-range test first: every index here is in range, so the
/// branch is always taken the same way (a branch-free min/max clamp, the first hand code,
/// measured slower on this machine: 134-229 ns against 107-166 for this form).
inline std::size_t clamped(int j) {
  constexpr int n = static_cast<int>(vertices);
  if (static_cast<unsigned>(j) < static_cast<unsigned>(n)) [[likely]]
    return static_cast<std::size_t>(j);
  j = j < 0 ? j + n : j;
  return static_cast<std::size_t>(j < 0 ? 0 : j >= n ? n - 1 : j);
}

/// The gather as a user writes it by hand: the index clamped, the row copied.
template <class T>
[[gnu::noinline]] void hand_pick(problem<T>& p) {
  alignas(64) T rows[picked * 3];  // every entry is written
  const T* v = p.v.data();
  const int* idx = p.idx.data();
  for (std::size_t k = 0; k < picked; ++k) {
    const std::size_t j = clamped(idx[k]);
    for (std::size_t i = 0; i < 3; ++i) rows[k * 3 + i] = v[j * 3 + i];
  }
  benchmark::DoNotOptimize(rows);
  if (p.keep) std::copy(rows, rows + picked * 3, p.rows.data());
}
template <class T>
[[gnu::noinline]] void hand_vjp(problem<T>& p) {
  calx::tensor<T, vertices, 3> out;  // zeros
  const T* w = p.w.data();
  const int* idx = p.idx.data();
  T* grad = out.data();
  for (std::size_t k = 0; k < picked; ++k) {
    // The row's three adds written out: g++ 12 kept a loop of three scalar adds, slower.
    T* g = grad + clamped(idx[k]) * 3;
    const T* wk = w + k * 3;
    g[0] += wk[0];
    g[1] += wk[1];
    g[2] += wk[2];
  }
  benchmark::DoNotOptimize(out.data());
  if (p.keep) p.grad = out;
}

template <class T>
void register_type() {
  static std::deque<problem<T>> problems;
  problem<T>& q = problems.emplace_back(make_problem<T>());
  {
    problem<T> a = q, b = q;
    a.keep = b.keep = true;
    calx_pick(a);
    hand_pick(b);
    calx_vjp(a);
    hand_vjp(b);
    for (std::size_t k = 0; k < picked * 3; ++k)
      if (a.rows[k] != b.rows[k]) {
        std::printf("check failed (take %s)\n", type_name<T>());
        std::exit(1);
      }
    for (std::size_t k = 0; k < vertices * 3; ++k)
      if (a.grad[k] != b.grad[k]) {  // the same additions in the same order
        std::printf("check failed (take's vjp %s)\n", type_name<T>());
        std::exit(1);
      }
  }
  const std::string t = type_name<T>();
  auto reg = [&](std::string name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fn, &q)->ComputeStatistics("min", min_of);
  };
  reg("indexing/take/" + t + "/calx", bm<problem<T>, &calx_pick<T>>);
  reg("indexing/take/" + t + "/hand", bm<problem<T>, &hand_pick<T>>);
  reg("indexing/take_vjp/" + t + "/calx", bm<problem<T>, &calx_vjp<T>>);
  reg("indexing/take_vjp/" + t + "/hand", bm<problem<T>, &hand_vjp<T>>);
  compare(t + " take of 100 rows of 544 x 3, calx / hand", "indexing/take/" + t + "/calx", "indexing/take/" + t + "/hand");
  compare(t + " its vjp (scatter-add), calx / hand", "indexing/take_vjp/" + t + "/calx", "indexing/take_vjp/" + t + "/hand");
  // With CALX_BENCH_DUMP=<folder>, the inputs and calx's results as raw arrays, for
  // bench/peers/indexing.py to run JAX on the same numbers and check it against calx:
  // take_<t>.bin (T): v (544 x 3), w (100 x 3), take(v, idx) (100 x 3), then the gradient of
  // sum(take(v, idx) * w) in v (544 x 3); take_<t>_idx.bin (int32): idx (100).
  const auto dump = [](const char* folder, const problem<T>& q0) {
    problem<T> a = q0;
    a.keep = true;
    calx_pick(a);
    calx_vjp(a);
    const std::string b = std::string(folder) + "/take_" + type_name<T>();
    write_numbers<T>(b + ".bin", [&](std::vector<T>& v) {
      v.insert(v.end(), a.v.data(), a.v.data() + vertices * 3);
      v.insert(v.end(), a.w.data(), a.w.data() + picked * 3);
      v.insert(v.end(), a.rows.data(), a.rows.data() + picked * 3);
      v.insert(v.end(), a.grad.data(), a.grad.data() + vertices * 3);
    });
    write_numbers<int>(b + "_idx.bin", [&](std::vector<int>& v) { v.assign(a.idx.data(), a.idx.data() + picked); });
  };
  if (const char* folder = std::getenv("CALX_BENCH_DUMP")) dump(folder, q);
}

}  // namespace

int main(int argc, char** argv) {
  register_type<float>();
  register_type<double>();
  return run_benchmarks(argc, argv);
}
