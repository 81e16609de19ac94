/// @file tensor_type.hpp
/// @brief `calx::tensor<T, dims...>`: a tensor whose shape is part of its type, a value type
/// (zeros when default-constructed, row-major storage) that is also what a traced function
/// sees for a tensor argument. A tensor holds either numbers or, while calx traces a
/// function, the IR node it stands for: every tensor op computes on numbers, or records one
/// node when an operand is traced, whatever the shapes (docs/tensors.md). That is why a
/// non-template struct of tensors (`struct mlp { calx::tensor<float, 32, 16> w1; ... }`) can be
/// differentiated: its traced form is itself. How it computes and records is
/// detail/tensor/tracing.hpp.
#ifndef CALX_TENSOR_TYPE_HPP
#define CALX_TENSOR_TYPE_HPP

#include <calx/config.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/detail/tensor/ir_ops.hpp>
#include <calx/detail/returned.hpp>
#include <calx/detail/tensor/tracing.hpp>
#include <calx/math.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

/// A writable element of a tensor: a rank-0 tensor (so it takes part in traced arithmetic)
/// that assignment writes through.
template <class T>
class tensor_element;

namespace detail {
/// The element types of an index tensor (an argument of calx::take, segment_sum,
/// dynamic_slice): integers, traced as real numbers (exact to 2^53, 2^24 in float programs).
template <class T>
concept index_element = std::is_same_v<T, int> || std::is_same_v<T, long> || std::is_same_v<T, long long> ||
                        std::is_same_v<T, unsigned> || std::is_same_v<T, unsigned long> ||
                        std::is_same_v<T, unsigned long long>;
}  // namespace detail

template <class T, std::size_t... Dims>
class tensor {
  // Not for other numbers. (A struct template over its number type names tensor<tracer, ...>
  // when calx looks for its traced form; that type exists but is never used: the traced
  // form of a tensor is itself.)
  static_assert(std::is_floating_point_v<T> || std::is_same_v<T, bool> || detail::index_element<T> || !std::is_arithmetic_v<T>,
                "calx::tensor: the element type must be float or double (bool: a mask, from a comparison; int, long, "
                "long long or their unsigned forms: indices, for calx::take and calx::segment_sum)");
  static_assert(sizeof...(Dims) <= 4, "calx::tensor: at most 4 axes");
  static_assert(((Dims > 0) && ...), "calx::tensor: every extent must be at least 1");

 public:
  using value_type = T;
  static constexpr std::size_t rank = sizeof...(Dims);
  static constexpr std::array<std::size_t, rank> shape{Dims...};
  static constexpr std::size_t size = (std::size_t{1} * ... * Dims);

  constexpr tensor() = default;
  /// A rank-0 tensor from a number.
  constexpr tensor(T v)
    requires(rank == 0)
  {
    storage_.elems[0] = v;
  }

  /// Node `id` of trace `*graph` (calx makes these while it traces; they hold no numbers).
  struct traced_node {
    detail::graph* graph;
    int id;
  };
  constexpr explicit tensor(traced_node n) : storage_(n), graph_(n.graph), id_(n.id) {}
  /// A tensor of numbers not yet set (calx writes every one: `detail::returned_written`).
  constexpr explicit tensor(detail::unset_t u) : storage_(u) {}

  /// Element (i...) in plain code; while traced, its node (a rank-0 tensor). Writing needs
  /// numbers.
  template <std::integral... I>
    requires(sizeof...(I) == rank)
  constexpr tensor_element<T> operator()(I... i) {
    return tensor_element<T>(*this, flat_index(i...));
  }
  template <std::integral... I>
    requires(sizeof...(I) == rank)
  constexpr tensor<T> operator()(I... i) const {
    return element_at(flat_index(i...));
  }

  /// Flat element k (row major): the tree library's view of a tensor of numbers. A traced
  /// tensor has no numbers: reading one while tracing is reported.
  constexpr T& operator[](std::size_t k) {
    if (std::is_constant_evaluated() && graph_ != nullptr) {
      graph_->refuse(&report_flat_index);
      return graph_->template scratch<T>();  // the trace goes on, to be reported
    }
    return storage_.elems[k];
  }
  constexpr const T& operator[](std::size_t k) const {
    if (std::is_constant_evaluated() && graph_ != nullptr) {
      graph_->refuse(&report_flat_index);
      return graph_->template scratch<T>();
    }
    return storage_.elems[k];
  }
  constexpr T* data() { return storage_.elems; }
  constexpr const T* data() const { return storage_.elems; }

  /// A rank-0 tensor's number.
  constexpr operator T() const
    requires(rank == 0)
  {
    if (graph_ != nullptr) detail::trace_error("calx: a traced value used as a number (use calx ops on it)");
    return storage_.elems[0];
  }

  /// Whether this tensor stands for a node of a trace (inside a function calx traces).
  constexpr bool is_traced() const { return graph_ != nullptr; }

 private:
  static constexpr void report_flat_index(bool now) {
    // One line: the compiler quotes the line of the call, which is the message.
    if (now) detail::trace_error("calx: t[k] on a traced tensor, which has no numbers: read elements with t(i, ...), rows with calx::take<i>(t)");
  }

 public:

  constexpr tensor<T> element_at(std::size_t k) const {
    if (graph_ != nullptr)
      return detail::tensor_access::make_traced<tensor<T>>(graph_, detail::index(*graph_, id_, static_cast<int>(k)));
    return tensor<T>(storage_.elems[k]);
  }

 private:
  friend struct detail::tensor_access;
  template <std::integral... I>
  static constexpr std::size_t flat_index(I... i) {
    std::size_t k = 0, a = 0;
    ((k = k * shape[a++] + static_cast<std::size_t>(i)), ...);
    return k;
  }
  // The numbers, or nothing while traced: a traced tensor of 65536 elements must not cost
  // 65536 values in the compiler's constant evaluation (trivially copyable either way).
  union storage {
    T elems[size];
    char traced;
    constexpr storage() : elems{} {}
    constexpr explicit storage(traced_node) : traced{} {}
    // Elements left unset at run time (constant evaluation needs them set), for a caller
    // that writes every one (`detail::returned_written`).
    constexpr explicit storage(detail::unset_t) {
      if (std::is_constant_evaluated())
        for (std::size_t k = 0; k < size; ++k) elems[k] = T();
    }
  };
  storage storage_;
  detail::graph* graph_ = nullptr;  // set while traced: this tensor is node `id_` of *graph_
  int id_ = -1;
};

namespace detail {
template <class T>
struct tensor_traits<tensor_element<T>> : tensor_traits<tensor<T>> {};
template <class T, std::size_t... D>
inline constexpr bool built_unset_v<tensor<T, D...>> = true;
}  // namespace detail

template <class T>
class tensor_element : public tensor<T> {
 public:
  template <std::size_t... D>
  constexpr tensor_element(tensor<T, D...>& t, std::size_t k)
      : tensor<T>(t.element_at(k)), target_(t.is_traced() ? nullptr : &t[k]) {}
  constexpr tensor_element& operator=(T v) {
    target() = v;
    // This proxy is also a rank-0 tensor holding the element's number (what calx ops read):
    // keep that copy current, so `a = (t(i) = v)` and `t(i) += v` read the number written.
    if (target_ != nullptr) tensor<T>::operator[](0) = v;
    return *this;
  }
  /// The element's number now (a write through `t[k]` after this proxy was made included).
  constexpr operator T() const { return target_ != nullptr ? *target_ : static_cast<const tensor<T>&>(*this).operator T(); }
  constexpr tensor_element(const tensor_element&) = default;  // the same element
  constexpr tensor_element& operator=(const tensor_element& o) { return *this = static_cast<T>(o); }
  constexpr tensor_element& operator+=(T v) { return *this = target() + v; }
  constexpr tensor_element& operator-=(T v) { return *this = target() - v; }
  constexpr tensor_element& operator*=(T v) { return *this = target() * v; }
  constexpr tensor_element& operator/=(T v) { return *this = target() / v; }

 private:
  /// The element's number; a traced tensor has none (every write reports it, while tracing).
  constexpr T& target() const {
    if (target_ != nullptr) return *target_;
    detail::graph* g = detail::tensor_access::graph_of(static_cast<const tensor<T>&>(*this));
    g->refuse(&report_write);
    return g->template scratch<T>();  // the trace goes on, to be reported (graph::refuse)
  }
  static constexpr void report_write(bool now) {
    if (now) detail::trace_error("calx: an element of a traced tensor written (tensors are values: build a new one)");
  }
  T* target_;
};

namespace detail {
/// What a tensor of shape D... becomes when each element becomes a `U`: a tensor of `U`
/// numbers; a tensor of shape D..., E... for a tensor `U` of shape E... (a Jacobian's layout,
/// JAX's: the output's axes, then the input's); for a structure `U` (the derivative with
/// respect to several arguments, or to a struct), that structure with each of its leaves so
/// extended, as JAX's jacobian of an array output (one array per input leaf, not an array of
/// structures); an array for anything else. Traced (a `tracer` leaf), a tensor is itself:
/// `T`, its own element type, is kept for that.
template <class U, class T, std::size_t... D>
struct tensor_rebind {
  using type = std::conditional_t<std::is_floating_point_v<U>, tensor<U, D...>, std::array<U, (std::size_t{1} * ... * D)>>;
};
template <class U, std::size_t... E, class T, std::size_t... D>
struct tensor_rebind<tensor<U, E...>, T, D...> {
  using type = tensor<U, D..., E...>;
};
template <class T, std::size_t... D>
struct tensor_rebind<tracer, T, D...> {
  using type = tensor<T, D...>;
};
template <class T, std::size_t... D>
struct extended_by {
  template <class C>
  using type = typename tensor_rebind<C, T, D...>::type;
};
template <structure U, class T, std::size_t... D>
  requires(!traced_whole<U>)
struct tensor_rebind<U, T, D...> {
  using type = typename tree_node<U>::template with<extended_by<T, D...>::template type>;
};
}  // namespace detail

template <class T, std::size_t... D>
struct tree_node<tensor<T, D...>> {
  using element = T;
  static constexpr std::size_t extent = tensor<T, D...>::size;
  static constexpr detail::shape dims = detail::tensor_traits<tensor<T, D...>>::dims;
  /// Traced, a tensor is itself (it holds its node); see `detail::tensor_rebind` otherwise.
  template <template <class> class F>
  using with = typename detail::tensor_rebind<F<T>, T, D...>::type;
  static constexpr tracer traced(const tensor<T, D...>& t) {
    return tracer{detail::tensor_access::graph_of(t), detail::tensor_access::own_id(t)};
  }
  /// `node`, a node of this many elements, as this tensor (reshaped if its shape differs).
  static constexpr void set_node(tensor<T, D...>& t, tracer node) {
    t = detail::tensor_access::make_traced<tensor<T, D...>>(node.graph, detail::reshape(*node.graph, node.id, dims));
  }
  static constexpr void set_traced(tensor<T, D...>& t, const tracer* flat) {
    detail::graph* g = nullptr;
    std::vector<int> ids(extent, -1);
    for (std::size_t k = 0; k < extent; ++k) {
      if (flat[k].graph != nullptr) g = flat[k].graph;
      ids[k] = flat[k].id;
    }
    if (g == nullptr) return;  // every element a symbolic zero: a tensor of zeros
    t = detail::tensor_access::make_traced<tensor<T, D...>>(g, detail::gather(*g, ids, 0, detail::dims_v<tensor<T, D...>>));
  }
};

// ---- arithmetic ------------------------------------------------------------------------

/// Operands of tensor arithmetic: a tensor, a number or a traced scalar.
template <class A, class B>
concept tensor_operands = (detail::tensor_type<A> || detail::tensor_type<B>) &&
                          (detail::tensor_type<A> || real_operand<A>) && (detail::tensor_type<B> || real_operand<B>);

#define CALX_TENSOR_BINARY(sym, Op)                                         \
  template <class A, class B>                                               \
    requires tensor_operands<A, B>                                          \
  constexpr auto operator sym(const A& a, const B& b) {                     \
    return detail::tensor_apply<Op>(a, b);                                  \
  }
CALX_TENSOR_BINARY(+, add_op)
CALX_TENSOR_BINARY(-, sub_op)
CALX_TENSOR_BINARY(*, mul_op)
CALX_TENSOR_BINARY(/, div_op)
#undef CALX_TENSOR_BINARY

template <class T, std::size_t... D>
constexpr tensor<T, D...> operator-(const tensor<T, D...>& a) {
  return detail::tensor_apply<neg_op>(a);
}

namespace detail {
/// `t op= b` keeps t's type: b must broadcast to t's own shape.
template <class X, class B>
constexpr bool compound_keeps_type() {
  return operands_broadcast<X, B>() && common_shape<X, B>() == dims_v<X>;
}
template <class X, class B>
constexpr void compound_changes_shape() {
  static_assert(tensor_shapes_ok<X, B>, "calx: t op= b needs b to broadcast to t's own shape (t keeps its type); write "
                                        "t2 = t op b for a result of another shape; the shapes are the template "
                                        "arguments above");
}
}  // namespace detail

// Compound assignment: `t += b` is `t = t + b` (a new value, as every tensor op's; traced,
// a new node), for b a tensor, a number or a traced scalar that broadcasts to t's shape.
#define CALX_TENSOR_COMPOUND(sym, Op)                                              \
  template <class T, std::size_t... D, class B>                                    \
    requires tensor_operands<tensor<T, D...>, B>                                   \
  constexpr tensor<T, D...>& operator sym##=(tensor<T, D...>& a, const B& b) {    \
    if constexpr (detail::compound_keeps_type<tensor<T, D...>, B>())               \
      a = a sym b;                                                                 \
    else                                                                           \
      detail::compound_changes_shape<tensor<T, D...>, B>();                        \
    return a;                                                                      \
  }
CALX_TENSOR_COMPOUND(+, add_op)
CALX_TENSOR_COMPOUND(-, sub_op)
CALX_TENSOR_COMPOUND(*, mul_op)
CALX_TENSOR_COMPOUND(/, div_op)
#undef CALX_TENSOR_COMPOUND

// ---- axes ---------------------------------------------------------------------------------

namespace detail {
template <int A>
struct axis_t {
  static constexpr int value = A;
};

/// The shape of a reduction of `s` over axis `a` (-1: all).
constexpr shape reduced(shape s, int a) {
  if (a < 0) return shape{};
  shape r{};
  for (int k = 0; k < s.rank; ++k)
    if (k != a) r.extent[r.rank++] = s.extent[k];
  return r;
}

template <class X, int A>
struct reduced_shape_of {
  static constexpr shape value = reduced(tensor_traits<X>::dims, A);
};
template <class X, int A>
using reduced_t = tensor_of_t<typename tensor_traits<X>::value_type, reduced_shape_of<X, A>>;

/// An axis the tensor does not have; the instantiation names the tensor and the axis.
template <class X, int A>
constexpr void axis_out_of_range() {
  static_assert(tensor_axes_ok<X, A>, "calx: the axis is out of range for this tensor; the tensor and the axis are the template "
                        "arguments above");
}
/// Whether `X` has axis `A` (-1: every axis); reports it if not.
template <class X, int A>
constexpr bool axis_in_range() {
  if constexpr (A >= -1 && A < tensor_traits<X>::dims.rank) {
    return true;
  } else {
    axis_out_of_range<X, A>();
    return false;
  }
}

template <class X>
constexpr int axis_of() {
  return -1;
}
template <class X, class A>
constexpr int axis_of() {
  return A::value;
}

}  // namespace detail

/// An axis argument: `calx::sum(t, calx::axis<1>)`.
template <int A>
inline constexpr detail::axis_t<A> axis{};

// ---- comparisons: mask tensors (tensor<bool, ...>), for calx::where ---------------------

#define CALX_TENSOR_COMPARE(sym, Op)                                        \
  template <class A, class B>                                               \
    requires tensor_operands<A, B>                                          \
  constexpr auto operator sym(const A& a, const B& b) {                     \
    return detail::tensor_apply<Op>(a, b);                                  \
  }
CALX_TENSOR_COMPARE(<, lt_op)
CALX_TENSOR_COMPARE(<=, le_op)
CALX_TENSOR_COMPARE(>, gt_op)
CALX_TENSOR_COMPARE(>=, ge_op)
CALX_TENSOR_COMPARE(==, eq_op)
CALX_TENSOR_COMPARE(!=, ne_op)
#undef CALX_TENSOR_COMPARE

CALX_END_NAMESPACE

#endif // CALX_TENSOR_TYPE_HPP
