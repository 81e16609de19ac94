/// @file detail/static_for.hpp
/// @brief `static_for<N>(f)`: f(integral_constant<J>) for J in [0, N), unrolled at compile
/// time, as fold expressions of at most 128 calls. One fold over a whole program would
/// exceed clang's default -fbracket-depth (256) on programs of more than 256 nodes.
#ifndef CALX_DETAIL_STATIC_FOR_HPP
#define CALX_DETAIL_STATIC_FOR_HPP

#include <calx/detail/internal_header_check.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

inline constexpr std::size_t fold_block = 128;

/// How many blocks N calls take, and how many calls block B holds.
constexpr std::size_t fold_block_count(std::size_t n) { return (n + fold_block - 1) / fold_block; }
constexpr std::size_t fold_block_size(std::size_t n, std::size_t b) {
  return n - b * fold_block < fold_block ? n - b * fold_block : fold_block;
}
/// The blocks of a fold of N calls, as an index sequence; more than 255 would exceed
/// clang's default -fbracket-depth.
template <std::size_t N>
struct fold_blocks {
  static_assert(fold_block_count(N) <= 255, "calx: a program of more than 32640 nodes is too large to compile");
  using type = std::make_index_sequence<fold_block_count(N)>;
};

template <std::size_t Base, class F, std::size_t... I>
CALX_HOST_DEVICE CALX_INLINE void static_for_block(F& f, std::index_sequence<I...>) {
  (f(std::integral_constant<std::size_t, Base + I>{}), ...);
}

template <std::size_t N, class F, std::size_t... B>
CALX_HOST_DEVICE CALX_INLINE void static_for_blocks(F& f, std::index_sequence<B...>) {
  (static_for_block<B * fold_block>(f, std::make_index_sequence<fold_block_size(N, B)>{}), ...);
}

template <std::size_t N, class F>
CALX_HOST_DEVICE CALX_INLINE void static_for(F&& f) {
  static_for_blocks<N>(f, typename fold_blocks<N>::type{});
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_STATIC_FOR_HPP
