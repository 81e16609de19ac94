/// @file tests/vmap.alloc.cpp
/// @brief No heap allocation inside vmap's evaluation loop. This test program replaces
/// the global operator new and delete with counting versions; a count is taken around one
/// call only, and checked after it (Catch's own allocations are outside the window).
///  - vmap(f).into(out)(xs...) with preallocated buffers, on one thread: 0 allocations;
///  - the owning call vmap(f)(xs...): one allocation per per-sample result (a column of
///    numbers, or of std::arrays; out_axes none leaves and std::array batches need none),
///    whatever the batch size;
///  - grad over a runtime batch and vmap(f).threads(2): a fixed number, independent of
///    the batch size (the result column, the per-chunk partial sums, the threads).

#include <_include/test_functions.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <thread>
#include <tuple>
#include <vector>

namespace {
std::atomic<std::size_t> allocations{0};

void* allocate(std::size_t n, std::size_t align) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (n == 0) n = 1;
  void* p = nullptr;
  if (align <= alignof(std::max_align_t)) {
    p = std::malloc(n);
  } else {
    n = (n + align - 1) / align * align;  // std::aligned_alloc wants a multiple of the alignment
    p = std::aligned_alloc(align, n);
  }
  return p;
}
}  // namespace

// The replaceable allocation functions ([new.delete]); the array, nothrow and sized forms
// route here too, so every allocation is counted once. (GCC's -Wmismatched-new-delete
// cannot see that these are the replacements and warns about free() on their pointers.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
  if (void* p = allocate(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = allocate(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

using calx_test::column;
using calx_test::sample;

/// The number of allocations `call()` makes.
template <class Call>
std::size_t allocations_in(Call&& call) {
  const std::size_t before = allocations.load();
  call();
  return allocations.load() - before;
}

using calx_test::fc;
using calx_test::fw;
constexpr auto split = [](auto x, auto w) { return std::tuple{x * w, w * w}; };
constexpr auto powers = [](auto x) { return std::array{x, x * x, x * x * x}; };
constexpr auto norm_plus = [](auto v) { return calx::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + v[0] * v[2]; };
constexpr auto h2 = [](auto p) { return p[0] * p[0] * p[1] + calx::sin(p[0] * p[1]) + calx::exp(0.5 * p[1]); };

const std::vector<std::size_t> sizes{1, 3, 7, 1000, 4097, 65537};

TEST_CASE("the counting allocator counts", "[vmap][alloc]") {
  CHECK(allocations_in([] { std::vector<double> v(10); }) == 1);
  CHECK(allocations_in([] { calx::batched<float> v(10); }) == 1);
}

TEST_CASE("vmap(f).into(out) on one thread allocates nothing", "[vmap][alloc]") {
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto x = column<double>(n, -3, 3, 1), y = column<double>(n, -3, 3, 2);
    std::vector<std::array<double, 3>> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {x[i], y[i], 1.0};
    std::vector<double> a(n), b(n), c(n);
    calx::batched<double> d(n);
    std::tuple<std::vector<double>&, double> once{a, c[0]};
    std::tuple<std::vector<double>&, calx::batched<double>&> every{a, d};
    std::array<std::vector<double>, 3> cubes{a, b, c};
    std::pair<std::vector<double>&, std::tuple<std::vector<double>&, calx::batched<double>&>> vg{a, {b, d}};

    CHECK(allocations_in([&] { calx::vmap(fc).into(a)(x); }) == 0);
    CHECK(allocations_in([&] { calx::vmap(fw).into(b)(x, y); }) == 0);
    CHECK(allocations_in([&] { calx::vmap(fw, calx::in_axes<0, calx::none>).into(b)(x, 0.5); }) == 0);
    CHECK(allocations_in([&] { calx::vmap(norm_plus).into(c)(v); }) == 0);
    CHECK(allocations_in([&] {
            calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>).into(once)(x, 2.0);
          }) == 0);
    CHECK(allocations_in([&] { calx::vmap(split, calx::in_axes<0, calx::none>).into(every)(x, 2.0); }) == 0);
    CHECK(d[n - 1] == 4.0);  // the work was done
    CHECK(allocations_in([&] { calx::vmap(powers).into(cubes)(x); }) == 0);
    CHECK(allocations_in([&] { calx::vmap(calx::value_and_grad(fw, calx::argnums<0, 1>)).into(vg)(x, y); }) == 0);
    CHECK(allocations_in([&] { calx::vmap(fc).threads(1).into(a)(x); }) == 0);
    CHECK(std::get<1>(once) == 4.0);
  }
}

TEST_CASE("the owning vmap call allocates one block per result, whatever the batch size", "[vmap][alloc]") {
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto x = column<double>(n, -3, 3, 3), y = column<double>(n, -3, 3, 4);
    std::vector<std::array<double, 2>> p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = {x[i], y[i]};
    CHECK(allocations_in([&] { (void)calx::vmap(fc)(x); }) == 1);
    CHECK(allocations_in([&] { (void)calx::vmap(fw)(x, y); }) == 1);
    CHECK(allocations_in([&] {
            (void)calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>)(x, 2.0);
          }) == 1);
    CHECK(allocations_in([&] { (void)calx::vmap(split, calx::in_axes<0, calx::none>)(x, 2.0); }) == 2);
    CHECK(allocations_in([&] { (void)calx::vmap(powers)(x); }) == 1);  // one std::array per sample
    CHECK(allocations_in([&] { (void)calx::vmap(calx::value_and_grad(fw, calx::argnums<0, 1>))(x, y); }) == 3);
    CHECK(allocations_in([&] { (void)calx::vmap(calx::hessian(h2))(p); }) == 1);  // one 2x2 per sample
  }
  // An empty batch has empty columns (std::vector allocates nothing for them), and a
  // std::array batch has std::array columns.
  const std::vector<double> none_;
  CHECK(allocations_in([&] { (void)calx::vmap(powers)(none_); }) == 0);
  const std::array<double, 5> five{1, 2, 3, 4, 5};
  CHECK(allocations_in([&] { (void)calx::vmap(powers)(five); }) == 0);
  std::array<double, 5> out5{};
  CHECK(allocations_in([&] { calx::vmap(fc).into(out5)(five); }) == 0);
}

TEST_CASE("grad over a runtime batch and vmap on two threads allocate a fixed number of blocks", "[vmap][alloc]") {
  constexpr auto loss = [](auto xs, auto w) { return calx::sum(calx::vmap(fw, calx::in_axes<0, calx::none>)(xs, w)); };
  std::vector<std::size_t> by_size_grad, by_size_threads;
  const bool several_cores = std::thread::hardware_concurrency() >= 2;
  for (std::size_t n : {std::size_t{4097}, std::size_t{10000}, std::size_t{65537}}) {
    const auto x = column<double>(n, -2, 2, 5);
    std::vector<double> out(n);
    by_size_grad.push_back(allocations_in([&] { (void)calx::grad(loss, calx::argnums<0, 1>)(x, 0.75); }));
    by_size_threads.push_back(allocations_in([&] { calx::vmap(fc).threads(2).into(out)(x); }));
  }
  INFO("grad: " << by_size_grad[0] << ", " << by_size_grad[1] << ", " << by_size_grad[2]
                << " allocations; vmap(f).threads(2).into(out): " << by_size_threads[0] << ", " << by_size_threads[1]
                << ", " << by_size_threads[2]);
  // The gradient column and one array of per-chunk partial sums (allocated before the
  // loop), and at present a copy of the gradient column made when the result is returned
  // (gradient.hpp returns a structured binding of a const local): 3 blocks.
  CHECK(by_size_grad[0] >= 2);
  CHECK(by_size_grad[0] <= 3);
  CHECK(by_size_grad[1] == by_size_grad[0]);
  CHECK(by_size_grad[2] == by_size_grad[0]);
  // The second thread's state, and nothing per chunk. (With one core the count is capped
  // to one thread and nothing is allocated.)
  CHECK(by_size_threads[1] == by_size_threads[0]);
  CHECK(by_size_threads[2] == by_size_threads[0]);
  if (several_cores) CHECK(by_size_threads[0] > 0);
}

}  // namespace
