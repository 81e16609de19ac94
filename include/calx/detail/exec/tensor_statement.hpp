/// @file detail/exec/tensor_statement.hpp
/// @brief `statement_of<IR, J>::statement<IR, J>(get, put)`: the statement codegen emits
/// for node J, for every backend. A scalar node is one kernel call; a tensor node a loop
/// over its elements (an elementwise op reads the same element of each operand,
/// broadcasting having made their shapes equal) or the statement its tensor op's traits
/// give (detail/tensor/ir_ops.hpp). Shapes and attributes are compile-time constants of the
/// IR, so small loops unroll and large ones stay loops: the code grows with the program,
/// not with the shapes. `get(operand_c<Id>{}, e)` reads element e of operand
/// Id, `put(e, v)` writes element e of node J; both index the backend's registers.
#ifndef CALX_DETAIL_EXEC_TENSOR_STATEMENT_HPP
#define CALX_DETAIL_EXEC_TENSOR_STATEMENT_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/fused_statement.hpp>
#include <calx/detail/exec/fusion.hpp>
#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/detail/tensor/elementwise_batches.hpp>
#include <calx/detail/tensor/ir_ops.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

// The kernels of ops that compute their results together (detail/exec/results_kernel.hpp,
// which the headers of those ops include), by the op's descriptor `R`.
template <op_ref R, class T>
void results_kernel(const T* const* in, T* out);
template <op_ref R, class T>
void results_kernel_lanes(const T* const* in, const bool* batched, T* out, int lanes);

/// A tuple node whose op computes its results together (a loop): one call of its results
/// kernel, given where each operand's elements are and where the node's own registers are
/// (the readers' and writer's `address`): on numbers `results_kernel`, on SIMD batches
/// `results_kernel_lanes`, told which operands hold one value per lane. The kernel is
/// compiled here, for this op and this value type only.
/// Host code only: device code runs programs lowered to built-in ops (`lowered_t`; a loop,
/// which has no decomposition, is refused by name before), so a device instantiation,
/// which nvcc compiles for a program a host kernel evaluates, never runs.
template <const auto& IR, std::size_t J, class Get, class Put, int... I>
CALX_HOST_DEVICE CALX_INLINE void results_statement(const Get& get, const Put& put, std::integer_sequence<int, I...>) {
#ifdef __CUDA_ARCH__
  (void)get, (void)put;
  __trap();
#else
  constexpr op_ref op = IR.nodes[J].op;
  using V = std::remove_cvref_t<decltype(get(operand_c<IR.operand(J, 0)>{}, 0))>;
  if constexpr (std::is_floating_point_v<V>) {
    const V* const in[] = {get.address(operand_c<IR.operand(J, I)>{})...};
    results_kernel<op, V>(in, put.address());
  } else {
    using T = typename V::value_type;
    // Registers of batches (straight-line code on SIMD lanes: a loop nested in a loop's
    // step) hold every value as one batch, its lanes consecutive: each operand is batched.
    using A = std::remove_cvref_t<decltype(*get.address(operand_c<IR.operand(J, 0)>{}))>;
    constexpr bool lane_registers = std::is_same_v<A, V>;
    const T* const in[] = {reinterpret_cast<const T*>(get.address(operand_c<IR.operand(J, I)>{}))...};
    constexpr bool batched[] = {(lane_registers || Get::batched(operand_c<IR.operand(J, I)>{}))...};
    T* const out = reinterpret_cast<T*>(put.address());
    results_kernel_lanes<op, T>(in, batched, out, static_cast<int>(V::size));
  }
#endif
}

/// Elements [0, n) of an operand, `at(e)`, into `out`, `L` lanes each (a batch stored as
/// its lanes, a number repeated).
template <std::size_t L, class T, class At>
CALX_HOST_DEVICE CALX_INLINE void gather_operand(T* out, int n, const At& at) {
  using V = std::remove_cvref_t<decltype(at(0))>;
  for (int e = 0; e < n; ++e) {
    if constexpr (std::is_arithmetic_v<V>)
      for (std::size_t l = 0; l < L; ++l) out[static_cast<std::size_t>(e) * L + l] = static_cast<T>(at(e));
    else
      V(at(e)).store_aligned(out + static_cast<std::size_t>(e) * L);
  }
}

/// Op `op`'s statement on numbers of type T (float or double).
template <class T>
inline void run_statement(const op_info& op, const T* const* in, T* out) {
  if constexpr (std::is_same_v<T, float>)
    op.extra().statement_f32(in, out);
  else
    op.extra().statement_f64(in, out);
}

/// A user tensor op's node (`op_extras::statement_f64`): its operands' elements gathered, its
/// kernel run on numbers (on SIMD batches, lane by lane: the kernel is a host function of
/// float or double, as a user scalar op's), the result scattered into the node's registers.
/// Host code only: device code runs its decomposition or refuses it by name (`no_device_kernel`).
template <const auto& IR, std::size_t J, class Get, class Put, int... I>
CALX_HOST_DEVICE CALX_INLINE void user_statement(const Get& get, const Put& put, std::integer_sequence<int, I...>) {
#ifdef __CUDA_ARCH__
  (void)get, (void)put;
  __trap();
#else
  constexpr node n = IR.nodes[J];
  constexpr int size[] = {IR.nodes[IR.operand(J, I)].size()...};
  constexpr int total = (0 + ... + size[I]);
  constexpr auto offset = [&] {
    std::array<int, sizeof...(I)> o{};
    for (std::size_t i = 1; i < sizeof...(I); ++i) o[i] = o[i - 1] + size[i - 1];
    return o;
  }();
  using V = std::remove_cvref_t<decltype(get(operand_c<IR.operand(J, 0)>{}, 0))>;
  if constexpr (std::is_floating_point_v<V>) {
    V x[total], y[n.size()];
    ((gather_operand<1>(x + offset[I], size[I], [&](int e) { return get(operand_c<IR.operand(J, I)>{}, e); })), ...);
    const V* const in[] = {x + offset[I]...};
    run_statement(n.op(), in, y);
    for (int e = 0; e < n.size(); ++e) put(e, y[e]);
  } else {
    using T = typename V::value_type;
    constexpr std::size_t L = V::size;
    alignas(64) T xs[total * L], ys[n.size() * L];
    ((gather_operand<L>(xs + offset[I] * L, size[I], [&](int e) { return get(operand_c<IR.operand(J, I)>{}, e); })), ...);
    for (std::size_t l = 0; l < L; ++l) {
      T x[total], y[n.size()];
      for (int k = 0; k < total; ++k) x[k] = xs[k * L + l];
      const T* const in[] = {x + offset[I]...};
      run_statement(n.op(), in, y);
      for (int e = 0; e < n.size(); ++e) ys[e * L + l] = y[e];
    }
    for (int e = 0; e < n.size(); ++e) put(e, V::load_aligned(ys + e * L));
  }
#endif
}

/// Whether elementwise node J runs as xsimd batches of its elements (`elementwise_batches`):
/// its operands read as lvalues (`A`, `Rest`) of a floating-point type (numbers in memory, not SIMD
/// lanes of samples or values read one by one), a writer with an address, a real result of
/// at least eight batches of elements, and real operands of the same size.
template <const auto& IR, std::size_t J, class Put, class A, class... Rest>
constexpr bool batches_of_elements() {
  using V = std::remove_cvref_t<A>;
  if constexpr (!numbers_in_memory<A, Put>() || !(std::is_lvalue_reference_v<Rest> && ...)) {
    return false;
  } else {
    constexpr node n = IR.nodes[J];
    // Eight batches at least: a smaller tensor keeps its inline loop, which g++ vectorises
    // where no tail is left (a call cost the 48 x 48 least-squares gradient 8% in f64).
    if (n.kind != value_kind::real || n.size() < 8 * static_cast<int>(xsimd::batch<V>::size)) return false;
    for (int i = 0; i < n.arity; ++i) {
      const node& o = IR.nodes[IR.operand(J, i)];
      if (o.kind != value_kind::real || o.size() != n.size()) return false;
    }
    return true;
  }
}

/// The statement of every node that is not a built-in tensor op's: an input (read in place
/// by `get`), a constant, a tuple's result, an op that computes its results together, a
/// user's tensor op, an elementwise op.
struct node_statement {
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr node n = IR.nodes[J];
    constexpr int size = n.size();
    if constexpr (n.op().builtin == builtin_code::input) {
      // read in place: `get` of an input reads the caller's memory
    } else if constexpr (n.op().builtin == builtin_code::constant) {
      using V = std::remove_cvref_t<decltype(get(operand_c<static_cast<int>(J)>{}, 0))>;
      if constexpr (n.kind == value_kind::boolean)
        put(0, V(n.value != 0.0));
      else
        put(0, V(n.value));
    } else if constexpr (n.op().builtin == builtin_code::get) {  // result `attr[0]` of a tuple node
      constexpr int offset = IR.nodes[IR.operand(J, 0)].op().result_offset(n.attr[0]);
      for (int e = 0; e < size; ++e) put(e, get(operand_c<IR.operand(J, 0)>{}, offset + e));
    } else if constexpr (n.op().has_results_kernel()) {
      results_statement<IR, J>(get, put, std::make_integer_sequence<int, n.arity>{});
    } else if constexpr (n.op().extra().statement_f64 != nullptr) {
      user_statement<IR, J>(get, put, std::make_integer_sequence<int, n.arity>{});
    } else if constexpr (n.op().builtin >= 0 && n.arity >= 1 && n.arity <= 3) {
      // A built-in elementwise op (nearly every node): its kernel called here, on element
      // e of each operand; no helper function per node, as each costs compile time.
      using traits = op_traits<builtin_at_t<static_cast<std::size_t>(n.op().builtin)>>;
      constexpr operand_c<IR.operand(J, 0)> a{};
      constexpr operand_c<IR.operand(J, n.arity > 1 ? 1 : 0)> b{};
      constexpr operand_c<IR.operand(J, n.arity > 2 ? 2 : 0)> c{};
#ifndef __CUDA_ARCH__
      // Numbers in memory (registers of straight-line code, arguments read in place), a real
      // result and real operands of its size: xsimd batches of elements.
      if constexpr (batches_of_elements<IR, J, Put, decltype(get(a, 0)), decltype(get(b, 0)), decltype(get(c, 0))>()) {
        if constexpr (n.arity == 1)
          elementwise_batches<traits, size>(put.address(), &get(a, 0));
        else if constexpr (n.arity == 2)
          elementwise_batches<traits, size>(put.address(), &get(a, 0), &get(b, 0));
        else
          elementwise_batches<traits, size>(put.address(), &get(a, 0), &get(b, 0), &get(c, 0));
        return;
      }
#endif
      for (int e = 0; e < size; ++e) {
        if constexpr (n.arity == 1)
          put(e, traits::kernel(get(a, e)));
        else if constexpr (n.arity == 2)
          put(e, traits::kernel(get(a, e), get(b, e)));
        else
          put(e, traits::kernel(get(a, e), get(b, e), get(c, e)));
      }
    } else {
      for (int e = 0; e < size; ++e) put(e, node_kernel<IR, J>(get, e));
    }
  }
};

/// The class whose `statement<IR, J>(get, put)` emits a node of the op with this `builtin`
/// code: a built-in tensor op's traits (its loop over whole values, detail/tensor/ir_ops.hpp),
/// else `node_statement`. (A flag, `whole_value`, not a requires-expression on `statement`:
/// nvcc 13 answers that one false.)
template <int Code>
struct statement_class {
  using type = node_statement;
};
template <int Code>
  requires(Code >= 0 && requires { op_traits<builtin_at_t<static_cast<std::size_t>(Code)>>::whole_value; })
struct statement_class<Code> {
  using type = op_traits<builtin_at_t<static_cast<std::size_t>(Code)>>;
};

/// Where codegen finds node J's statement: `statement_of<IR, J>::template statement<IR,
/// J>(get, put)`, for every backend. A class picked per op, not a function that calls
/// another: each function per node is one more for the compiler to instantiate and
/// optimise (with a dispatching function, the tensor tests' TUs had 8% more functions).
/// `plain_statement_of` for the backends that lay out registers of their own (the SIMD
/// executor's stages, the device loop); `statement_of` for straight-line code, whose
/// registers `allocate_slots` laid out with fusion (detail/exec/fusion.hpp): a node fusion
/// touches goes through `fused_statement`.
template <const auto& IR, std::size_t J>
using plain_statement_of = typename statement_class<IR.nodes[J].op().builtin>::type;
template <const auto& IR, std::size_t J>
using statement_of =
    std::conditional_t<fusion_of<IR>[J] == fused_role::alone, plain_statement_of<IR, J>, fused_statement>;

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_TENSOR_STATEMENT_HPP
