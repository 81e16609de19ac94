/// @file detail/call/views.hpp
/// @brief Flat inputs and outputs of a batched run, and collecting them from user
/// arguments and result structures.
#ifndef CALX_DETAIL_CALL_VIEWS_HPP
#define CALX_DETAIL_CALL_VIEWS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/io.hpp>
#include <calx/tree.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Throws std::invalid_argument (or prints and aborts where exceptions are disabled).
[[noreturn]] inline void invalid_argument(const std::string& what) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw std::invalid_argument(what);
#else
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
#endif
}

/// The batch length shared by every batched argument; the first mismatch throws with both
/// lengths and the argument positions.
struct batch_length {
  std::size_t size = 0;
  int owner = -1;
  void add(std::size_t n, int arg, const char* api) {
    if (owner < 0) {
      size = n;
      owner = arg;
    } else if (n != size) {
      invalid_argument(std::string(api) + ": batched arguments have different lengths: argument " +
                       std::to_string(owner) + " has " + std::to_string(size) + " samples, argument " +
                       std::to_string(arg) + " has " + std::to_string(n));
    }
  }
};

/// Views of an argument structure whose leaves are numbers (one value) or batches.
template <class L, class T>
void collect_views(const T& t, input_view<L>*& out, batch_length& len, int arg, const char* api) {
  if constexpr (std::is_floating_point_v<T>) {
    (out++)->value = static_cast<L>(t);
  } else if constexpr (has_batch_v<T> && tree_traits<T>::leaves == 1) {
    len.add(t.size(), arg, api);
    *out++ = input_view<L>{reinterpret_cast<const unsigned char*>(t.data()), sizeof(L), L{}};
  } else {
    std::apply([&](const auto&... e) { (collect_views<L>(e, out, len, arg, api), ...); }, t);
  }
}

/// Views of the leaves of element type `E` across a contiguous range of elements: leaf
/// addresses in the first element, and a stride of sizeof(E).
template <class L, class E>
void collect_element_views(const E* first, input_view<L>*& out) {
  auto walk = [&](auto& self, const auto& e) -> void {
    using X = std::remove_cvref_t<decltype(e)>;
    if constexpr (std::is_floating_point_v<X>)
      *out++ = input_view<L>{first == nullptr ? nullptr : reinterpret_cast<const unsigned char*>(&e), sizeof(E), L{}};
    else
      std::apply([&](const auto&... c) { (self(self, c), ...); }, e);
  };
  static const E placeholder{};  // shapes the walk when the batch is empty
  walk(walk, first == nullptr ? placeholder : *first);
}

/// Output views of a result structure: `Spec` is the traced output (tracer leaves); each
/// leaf of `r` is a column (something with data() and size()) or a number.
template <class Spec, class L, class R>
void collect_outputs(R& r, output_view<L>*& out, std::size_t batch, const char* api) {
  if constexpr (std::is_same_v<Spec, tracer>) {
    if constexpr (requires { r.data(); r.size(); }) {
      if (r.size() != batch)
        invalid_argument(std::string(api) + ": an output buffer has " + std::to_string(r.size()) +
                         " elements for a batch of " + std::to_string(batch));
      (out++)->column = r.data();
    } else {
      (out++)->scalar = &r;
    }
  } else if constexpr (requires { typename Spec::first_type; }) {
    collect_outputs<typename Spec::first_type, L>(r.first, out, batch, api);
    collect_outputs<typename Spec::second_type, L>(r.second, out, batch, api);
  } else if constexpr (requires { typename Spec::value_type; }) {
    for (auto& e : r) collect_outputs<typename Spec::value_type, L>(e, out, batch, api);
  } else {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (collect_outputs<std::tuple_element_t<I, Spec>, L>(std::get<I>(r), out, batch, api), ...);
    }(std::make_index_sequence<std::tuple_size_v<Spec>>{});
  }
}

/// Whether each leaf of a result structure `R` is a column, in flattening order; `Spec` is
/// the traced output (tracer leaves).
template <class Spec, class R>
constexpr void column_leaves(bool*& out) {
  if constexpr (std::is_same_v<Spec, tracer>) {
    *out++ = requires(R& r) {
      r.data();
      r.size();
    };
  } else if constexpr (requires { typename Spec::first_type; }) {
    column_leaves<typename Spec::first_type, typename R::first_type>(out);
    column_leaves<typename Spec::second_type, typename R::second_type>(out);
  } else if constexpr (requires { typename Spec::value_type; }) {
    for (std::size_t i = 0; i < std::tuple_size_v<Spec>; ++i) column_leaves<typename Spec::value_type, typename R::value_type>(out);
  } else {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (column_leaves<std::tuple_element_t<I, Spec>, std::tuple_element_t<I, R>>(out), ...);
    }(std::make_index_sequence<std::tuple_size_v<Spec>>{});
  }
}

/// Sizes every runtime column of a result structure to the batch.
template <class R>
void resize_columns(R& r, std::size_t batch) {
  if constexpr (requires { r.resize(batch); }) {
    r.resize(batch);
  } else if constexpr (requires { std::tuple_size<R>::value; }) {
    std::apply([&](auto&... e) { (resize_columns(e, batch), ...); }, r);
  }
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_VIEWS_HPP
