/// @file ops/reduction.hpp
/// @brief Ops across a runtime batch: `batch_sum` (a batched value summed over the batch)
/// and `broadcast` (an unbatched value given one copy per sample). Reverse mode inserts
/// `batch_sum` where a per-sample cotangent flows into an unbatched value: it is the
/// transpose of broadcasting.
#ifndef CALX_OPS_REDUCTION_HPP
#define CALX_OPS_REDUCTION_HPP

#include <calx/config.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <array>

CALX_BEGIN_NAMESPACE

/// The sum over the batch of a batched value. The batched executor accumulates it in the
/// loop over samples (deterministically: fixed chunks summed in order, whatever the
/// number of threads), so its kernel is only the per-sample identity.
template <>
struct op_traits<batch_sum_op> {
  static constexpr const char* name = "batch_sum";
  static constexpr int arity = 1;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr detail::batch_role batch_role = detail::batch_role::sum;
  static constexpr bool zero_preserving = true;
  static constexpr unsigned linear_in = 0b1;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& x) { return x; }
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] < 0) return -1;
    if (!g.is_batched(in[0])) g.refuse(&refuse_sample);
    return detail::no_simplification;
  }
  static constexpr void refuse_sample(bool now) {
    if (now)
      // One line: the compiler quotes the line of the call, which is the message.
      detail::trace_error("calx::sum: the value is not a runtime batch; calx::sum adds up a batch (a std::vector/std::span argument, or vmap's result) or a std::array. Inside a traced function a batch keeps its type, calx::batch_tracer; a batch stored in a calx::tracer has lost it (keep it in an auto variable)");
  }
  static constexpr tracer jvp(const auto&, const auto& x, const auto& t) {
    return detail::emit<batch_sum_op>(t.graph != nullptr && t.graph->is_batched(t.id) ? t : detail::emit<broadcast_op>(t, x));
  }
  static constexpr std::array<tracer, 1> vjp(const auto& ct, const auto&, const auto&) { return {ct}; }
};

/// `broadcast(a, like)`: the value `a`, batched like `like` (one copy per sample).
template <>
struct op_traits<broadcast_op> {
  static constexpr const char* name = "broadcast";
  static constexpr int arity = 2;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr bool zero_preserving = true;
  static constexpr unsigned linear_in = 0b01;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& a, const T&) { return a; }
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] < 0) return -1;
    if (g.is_batched(in[0]) || !g.is_batched(in[1])) return in[0];
    return detail::no_simplification;
  }
  static constexpr tracer jvp(const auto&, const auto&, const auto& like, const auto& ta, const auto&) {
    return detail::emit<broadcast_op>(ta, like);
  }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto&, const auto&, const auto&) {
    return {ct, tracer{}};
  }
};

/// `batch_size(like)`: the number of samples in the batch of `like`, known before the loop
/// (so `x / batch_size` needs no second pass); its derivative is zero.
template <>
struct op_traits<batch_size_op> {
  static constexpr const char* name = "batch_size";
  static constexpr int arity = 1;
  static constexpr detail::value_kind result = detail::value_kind::real;
  static constexpr detail::batch_role batch_role = detail::batch_role::size;
  template <class T>
  CALX_HOST_DEVICE static constexpr T kernel(const T& x) { return x; }  // the executor sets the value
  static constexpr int simplify(auto& g, int* in) {
    if (in[0] < 0 || !g.is_batched(in[0])) g.refuse(&refuse_sample);
    return detail::no_simplification;
  }
  static constexpr void refuse_sample(bool now) {
    if (now)
      // One line: the compiler quotes the line of the call, which is the message.
      detail::trace_error("calx::mean: the value is not a runtime batch. Inside a traced function a batch keeps its type, calx::batch_tracer; a batch stored in a calx::tracer has lost it (keep it in an auto variable)");
  }
  static constexpr tracer jvp(const auto&, const auto&, const auto&) { return tracer{}; }
  static constexpr std::array<tracer, 1> vjp(const auto&, const auto&, const auto&) { return {tracer{}}; }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_REDUCTION_HPP
