/// @file tests/device_ir.cpp
/// @brief The CUDA kernel's template argument, a program's IR as integers
/// (detail/exec/device_ir.hpp), decodes back to the IR it was made from: every node's op,
/// constant, operands, register slot, kind, batch flag, shape and attributes, and the
/// program's lists and register counts. Checked in constant evaluation on the host, on the
/// programs device code compiles (lowered for SIMD), without a GPU.

#include <_include/ir_inspect.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace {

/// The program device code compiles for `f` on arguments of types `A...`.
template <class F, class... A>
using lowered_program =
    calx::detail::lowered_t<calx::detail::trace_source<F, calx::detail::rebind_t<A, calx::tracer>...>,
                            xsimd::batch<double>>;

/// Whether `Source`'s IR, with straight-line registers, is what its integers decode to.
template <class Source>
constexpr bool round_trips() {
  const auto& a = calx::detail::materialized<Source>::slotted;
  const auto& b = calx::detail::decoded_ir<calx::detail::ir_key_t<Source>>::value;
  if (!calx_test::same_nodes_and_lists(a, b) || a.real_slots != b.real_slots || a.bool_slots != b.bool_slots)
    return false;
  for (std::size_t k = 0; k < a.input_offset.size(); ++k)
    if (a.input_offset[k] != b.input_offset[k]) return false;
  for (std::size_t k = 0; k < a.output_offset.size(); ++k)
    if (a.output_offset[k] != b.output_offset[k]) return false;
  return true;
}

/// Whether some node of `Source` satisfies `p`: that the programs below hold what they
/// are meant to (a test of the encoding is only as good as what it encodes).
template <class Source, class P>
constexpr bool some_node(P p) {
  for (const calx::detail::node& n : calx::detail::materialized<Source>::slotted.nodes)
    if (p(n)) return true;
  return false;
}

// Scalars: masks (a bool register), a negative zero and other constants, a select.
constexpr auto scalar = [](auto x, auto y) {
  return calx::where(x < y, x * -0.0 + 1.5 * y, calx::sin(y) - calx::exp(x)) + calx::where(y > 2.0, -3.25, x);
};

// Tensors: each built-in tensor op, with its attributes (axes, a slice's bounds, a
// contraction, an element), some of them negative.
using mat = calx::tensor<double, 3, 4>;
using vec = calx::tensor<double, 4>;
constexpr auto tensors = [](const auto& m, const auto& v) {
  const auto mv = calx::matvec(m, v);                                   // tensordot
  const auto part = calx::slice<1, 3>(m, calx::axis<1>);                // slice
  const auto rows = calx::concatenate(part, part * 2.0, calx::axis<1>); // pad
  const auto t = calx::transpose(rows);                                  // transpose
  const auto col = calx::max(t, calx::axis<0>);                          // reduce_max
  const auto flat = calx::reshape<12>(m);                                // reshape
  const auto s = calx::stack(calx::sum(v), m(2, 3), flat(5));            // index
  vec w{};                                                               // numbers: a pack
  w[0] = 1.0;
  w[1] = -2.0;
  w[3] = 0.5;
  return calx::sum(mv) + calx::sum(col * mv) + calx::sum(s) + calx::min(v * w - 1.0);  // broadcasts
};

// The ops indexed by runtime values, and their transposes (in the gradient).
constexpr auto indexed = [](const auto& m, const auto& idx, const auto& start) {
  const auto loss = [](const auto& a, const auto& i, const auto& s) {
    return calx::sum(calx::take(a, i, calx::axis<1>) * calx::segment_sum<2>(calx::dynamic_slice<2>(a, s), i)(0, 0));
  };
  return calx::sum(calx::grad(loss)(m, idx, start)) + loss(m, idx, start);
};

// A runtime batch: per-sample nodes (the batch flag), a sum over the batch.
constexpr auto batch_loss = [](auto xs, auto w) { return calx::sum(calx::tanh(xs * w) - w); };

}  // namespace

TEST_CASE("a program's integers decode to its IR: scalars, masks, constants", "[device][ir]") {
  using P = lowered_program<decltype(scalar), double, double>;
  STATIC_REQUIRE(some_node<P>([](const calx::detail::node& n) { return n.kind == calx::detail::value_kind::boolean; }));
  STATIC_REQUIRE(some_node<P>([](const calx::detail::node& n) { return n.is_constant() && n.value < 0.0; }));
  STATIC_REQUIRE(round_trips<P>());
}

TEST_CASE("a program's integers decode to its IR: every built-in tensor op and its attributes", "[device][ir][tensor]") {
  using P = lowered_program<decltype(tensors), mat, vec>;
  auto has = []<class Op>(calx::detail::type_identity<Op>) {
    return some_node<P>([](const calx::detail::node& n) { return n.op == calx::detail::ref_of<Op>(); });
  };
  using calx::detail::type_identity;
  STATIC_REQUIRE(has(type_identity<calx::tensordot_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::slice_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::pad_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::transpose_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::reduce_max_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::reduce_min_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::reduce_sum_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::reshape_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::pack_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::index_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::broadcast_in_dim_op>{}));
  STATIC_REQUIRE(round_trips<P>());
}

TEST_CASE("a program's integers decode to its IR: the ops indexed by runtime values", "[device][ir][tensor]") {
  using P = lowered_program<decltype(indexed), mat, calx::tensor<int, 2>, int>;
  auto has = []<class Op>(calx::detail::type_identity<Op>) {
    return some_node<P>([](const calx::detail::node& n) { return n.op == calx::detail::ref_of<Op>(); });
  };
  using calx::detail::type_identity;
  STATIC_REQUIRE(has(type_identity<calx::gather_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::scatter_add_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::dynamic_slice_op>{}));
  STATIC_REQUIRE(has(type_identity<calx::dynamic_pad_op>{}));
  STATIC_REQUIRE(round_trips<P>());
}

TEST_CASE("a program's integers decode to its IR: per-sample nodes of a runtime batch", "[device][ir][batch]") {
  using P = lowered_program<decltype(batch_loss), std::vector<double>, double>;
  STATIC_REQUIRE(some_node<P>([](const calx::detail::node& n) { return n.batched; }));
  STATIC_REQUIRE(round_trips<P>());
}
