/// @file tests/batched.cpp
/// @brief `calx::batched<T>`: the owning column of one value per sample that vmap and the
/// batched transforms return. A std::vector with a 64-byte aligned allocator: size(),
/// operator[], data() and iterators, storage aligned to 64 bytes however it was made,
/// grown, copied or moved.

#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

template <class T>
bool aligned64(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 64 == 0;
}

TEMPLATE_TEST_CASE("calx::batched<T> is a contiguous container of T", "[batched]", float, double) {
  using T = TestType;
  using B = calx::batched<T>;
  STATIC_REQUIRE(std::is_same_v<typename B::value_type, T>);
  STATIC_REQUIRE(std::ranges::contiguous_range<B>);
  STATIC_REQUIRE(std::ranges::sized_range<B>);
  STATIC_REQUIRE(std::is_nothrow_move_constructible_v<B>);
  STATIC_REQUIRE(std::is_convertible_v<B&, std::span<T>>);
  STATIC_REQUIRE(std::is_convertible_v<const B&, std::span<const T>>);

  B b(5);
  CHECK(b.size() == 5);
  std::iota(b.begin(), b.end(), T(1));
  CHECK(b[0] == T(1));
  CHECK(b[4] == T(5));
  CHECK(b.data() == &b[0]);
  CHECK(*(b.data() + 2) == T(3));
  CHECK(std::accumulate(b.begin(), b.end(), T(0)) == T(15));
  const std::span<const T> view = b;
  CHECK(view.size() == 5);
  CHECK(view.data() == b.data());
  B c(b);
  CHECK(c == b);
  c[0] = T(7);
  CHECK(c != b);
}

TEMPLATE_TEST_CASE("calx::batched<T> storage is 64-byte aligned", "[batched]", float, double) {
  using T = TestType;
  using B = calx::batched<T>;
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{16},
                        std::size_t{17}, std::size_t{1000}, std::size_t{65537}}) {
    INFO("n = " << n);
    B b(n);
    CHECK(aligned64(b.data()));
    B filled(n, T(2));
    CHECK(aligned64(filled.data()));
    const B copy = filled;
    CHECK(aligned64(copy.data()));
    CHECK(copy == filled);
    B moved = std::move(filled);
    CHECK(aligned64(moved.data()));
    b.resize(3 * n + 1);
    CHECK(aligned64(b.data()));
    B grown;
    for (std::size_t i = 0; i < n; ++i) {
      grown.push_back(T(i));
      if (!aligned64(grown.data())) break;
    }
    CHECK(aligned64(grown.data()));
    CHECK(grown.size() == n);
    B assigned;
    assigned.assign(n, T(1));
    CHECK(aligned64(assigned.data()));
  }
}

TEST_CASE("results of vmap and of batched transforms are aligned calx::batched columns", "[batched][vmap]") {
  constexpr auto f = [](auto x, auto y) { return std::pair{x * y, x + y}; };
  constexpr auto loss = [](auto xs) { return calx::sum(xs * xs); };
  for (std::size_t n : calx_test::batch_sizes<double>()) {
    if (n == 0) continue;
    INFO("n = " << n);
    const auto x = calx_test::column<double>(n, -1, 1, 1);
    const std::vector<float> xf(x.begin(), x.end());
    const auto [a, b] = calx::vmap(f)(x, x);
    CHECK(aligned64(a.data()));
    CHECK(aligned64(b.data()));
    CHECK(aligned64(calx::vmap(f)(xf, xf).first.data()));
    const calx::batched<double> g = calx::grad(loss)(x);
    CHECK(aligned64(g.data()));
    // The unaligned input does not make the output unaligned.
    const auto [c, d] = calx::vmap(f)(std::span<const double>(x).subspan(1), std::span<const double>(x).subspan(1));
    CHECK(c.size() == n - 1);
    if (n > 1) CHECK(aligned64(c.data()));
  }
}

TEST_CASE("calx::batched allocators compare equal, so containers swap and move freely", "[batched]") {
  calx::batched<double> a(3, 1.0), b(5, 2.0);
  CHECK(a.get_allocator() == b.get_allocator());
  const double* pa = a.data();
  const double* pb = b.data();
  a.swap(b);
  CHECK(a.data() == pb);
  CHECK(b.data() == pa);
  CHECK(a.size() == 5);
  a = std::move(b);
  CHECK(a.data() == pa);
  CHECK(a.size() == 3);
}

}  // namespace
