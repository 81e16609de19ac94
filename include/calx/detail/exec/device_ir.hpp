/// @file detail/exec/device_ir.hpp
/// @brief A program's IR as a list of integers, the template argument of its CUDA kernel.
/// nvcc allows no kernel template argument whose type names the user's lambda (a program's
/// type does), and cannot write a class-type value into the host stub of a kernel; a
/// pack of integers it can. The kernel decodes the IR back at compile time (`decoded_ir`):
/// the same nodes, ops, shapes and register slots, so the host's stages and the kernel
/// agree on every register. Only ops device code can run are encoded: the built-in ops,
/// scalar and tensor, which codegen names by their type.
#ifndef CALX_DETAIL_EXEC_DEVICE_IR_HPP
#define CALX_DETAIL_EXEC_DEVICE_IR_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/all_ops.hpp>
#include <calx/detail/exec/plan.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/detail/tensor/ir_ops.hpp>
#include <calx/op_traits.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Every op device code can run, by position: the built-in ops, whose kernels and statements
/// codegen names by type. A class template, so that only a translation unit that uses the
/// device path builds the table.
template <class Ops = builtin_ops>
struct device_op_table;
template <class... Ops>
struct device_op_table<type_list<Ops...>> {
  static constexpr std::array<op_ref, sizeof...(Ops)> value{ref_of<Ops>()...};
};

/// The position of `op` in the device op table, or -1.
template <class Ops = builtin_ops>
constexpr int device_op_index(op_ref op) {
  constexpr const auto& ops = device_op_table<Ops>::value;
  for (std::size_t k = 0; k < ops.size(); ++k)
    if (ops[k] == op) return static_cast<int>(k);
  return -1;
}

/// Whether every op of `Source` has a kernel device code can call. A user op without a
/// decomposition (its scalar kernel is a host function pointer) and a loop op (its results
/// kernel is one) have none.
template <class Source>
constexpr bool device_kernels_found() {
  constexpr const auto& r = materialized<Source>::value;
  for (std::size_t j = 0; j < r.nodes.size(); ++j)
    if (device_op_index(r.nodes[j].op) < 0) return false;
  return true;
}

/// The integers of one node: its op's position in the table, its constant, then its 32-bit
/// fields two to an integer (nvcc's memory grows with the kernel's template arguments:
/// `vmap_device.cu` took 13% more when the attributes came one to an integer).
inline constexpr std::size_t node_fields = 8;
static_assert(max_rank == 4, "calx internal: a node's extents are encoded two to an integer");

constexpr long long pack_pair(std::int32_t hi, std::int32_t lo) {
  return static_cast<long long>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32) |
                                static_cast<std::uint32_t>(lo));
}
constexpr std::int32_t pair_hi(long long c) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(c) >> 32));
}
constexpr std::int32_t pair_lo(long long c) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(c)));
}

/// The integers of IR `r`: its sizes and slot counts, each node's fields, its lists.
template <class IR>
constexpr auto encode_ir(const IR& r) {
  constexpr std::size_t N = IR::size, NA = IR::operand_count, NI = IR::input_leaves, NO = IR::output_leaves;
  std::array<long long, 8 + N * node_fields + (NA == 0 ? 1 : NA) + NI + NO + (NI + 1) + (NO + 1)> c{};
  std::size_t k = 0;
  for (std::size_t v : {N, NA, NI, NO, IR::input_count, IR::output_count}) c[k++] = static_cast<long long>(v);
  c[k++] = r.real_slots;
  c[k++] = r.bool_slots;
  for (const node& n : r.nodes) {
    c[k++] = device_op_index(n.op);
    c[k++] = std::bit_cast<long long>(n.value);
    c[k++] = pack_pair(n.first, n.arity);
    c[k++] = pack_pair(n.slot, static_cast<std::int32_t>(n.kind) | (n.batched ? 1 << 8 : 0) | n.dims.rank << 16);
    c[k++] = pack_pair(n.dims.extent[0], n.dims.extent[1]);
    c[k++] = pack_pair(n.dims.extent[2], n.dims.extent[3]);
    c[k++] = pack_pair(n.attr[0], n.attr[1]);
    c[k++] = pack_pair(n.attr[2], 0);
  }
  for (int x : r.operands) c[k++] = x;
  for (int x : r.inputs) c[k++] = x;
  for (int x : r.outputs) c[k++] = x;
  for (std::size_t x : r.input_offset) c[k++] = static_cast<long long>(x);
  for (std::size_t x : r.output_offset) c[k++] = static_cast<long long>(x);
  return c;
}

/// An IR as a type of integers.
template <long long... C>
struct ir_key {};

template <class Source>
struct encoded_ir {
  static constexpr auto codes = encode_ir(materialized<Source>::slotted);
};

template <class Source, class I = std::make_index_sequence<encoded_ir<Source>::codes.size()>>
struct key_of;
template <class Source, std::size_t... I>
struct key_of<Source, std::index_sequence<I...>> {
  using type = ir_key<encoded_ir<Source>::codes[I]...>;
};

/// The kernel's template argument for program `Source`.
template <class Source>
using ir_key_t = typename key_of<Source>::type;

/// The IR and batch plan back from their integers.
template <class Key>
struct decoded_ir;
template <long long... C>
inline constexpr long long key_codes[] = {C...};  // outside the class: clang 14 reads it there
template <long long... C>
struct decoded_ir<ir_key<C...>> {
  static constexpr const auto& c = key_codes<C...>;
  using type = ir<static_cast<std::size_t>(c[0]), static_cast<std::size_t>(c[1]), static_cast<std::size_t>(c[2]),
                  static_cast<std::size_t>(c[3]), static_cast<std::size_t>(c[4]), static_cast<std::size_t>(c[5])>;
  static constexpr type value = [] {
    type r{};
    std::size_t k = 6;
    r.real_slots = static_cast<int>(c[k++]);
    r.bool_slots = static_cast<int>(c[k++]);
    for (node& n : r.nodes) {
      n.op = device_op_table<>::value[static_cast<std::size_t>(c[k++])];
      n.value = std::bit_cast<double>(c[k++]);
      n.first = pair_hi(c[k]);
      n.arity = pair_lo(c[k++]);
      n.slot = pair_hi(c[k]);
      const std::int32_t flags = pair_lo(c[k++]);
      n.kind = static_cast<value_kind>(flags & 0xff);
      n.batched = (flags >> 8 & 1) != 0;
      n.dims.rank = flags >> 16;
      n.dims.extent[0] = pair_hi(c[k]);
      n.dims.extent[1] = pair_lo(c[k++]);
      n.dims.extent[2] = pair_hi(c[k]);
      n.dims.extent[3] = pair_lo(c[k++]);
      n.attr[0] = pair_hi(c[k]);
      n.attr[1] = pair_lo(c[k++]);
      n.attr[2] = pair_hi(c[k++]);
    }
    for (int& x : r.operands) x = static_cast<int>(c[k++]);
    for (int& x : r.inputs) x = static_cast<int>(c[k++]);
    for (int& x : r.outputs) x = static_cast<int>(c[k++]);
    for (std::size_t& x : r.input_offset) x = static_cast<std::size_t>(c[k++]);
    for (std::size_t& x : r.output_offset) x = static_cast<std::size_t>(c[k++]);
    return r;
  }();
  static constexpr auto plan = make_batch_plan(value);
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_DEVICE_IR_HPP
