/// @file detail/passes/ir_text.hpp
/// @brief A finished IR as text, one node a line, like `jax.make_jaxpr`: what
/// `calx::to_string(program)` prints, and what a control-flow op prints of its sub-programs.
#ifndef CALX_DETAIL_PASSES_IR_TEXT_HPP
#define CALX_DETAIL_PASSES_IR_TEXT_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/tensor/ir_ops.hpp>

#include <array>
#include <charconv>
#include <cstddef>
#include <string>

CALX_BEGIN_NAMESPACE
namespace detail {

/// jaxpr-style names: a, b, ..., z, ba, bb, ...
inline std::string value_name(int k) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('a' + k % 26));
    k /= 26;
  } while (k > 0);
  return s;
}

template <class T>
std::string number_text(T v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".einn") == std::string::npos) s += ".0";
  return s;
}

/// A tensor op's attributes, as jaxprs print parameters (`reduce_sum[axis=1]`): what its
/// traits' `attribute_text` says, or nothing.
inline std::string attribute_text(const node& n) {
  const int code = n.op().builtin;
  std::string text;
  [&]<class... Op>(type_list<Op...>) {
    ((builtin_code_v<Op> == code ? [&] {
      if constexpr (requires { op_traits<Op>::attribute_text(n); }) text = op_traits<Op>::attribute_text(n);
    }() : void()), ...);
  }(tensor_builtin_ops{});
  return text;
}

template <class IR>
std::string ir_text(const IR& r, const char* real_type, bool single) {
  std::string names[IR::size == 0 ? 1 : IR::size];
  int next = 0;
  auto ref = [&](int id) {
    const node& n = r.nodes[id];
    if (n.is_constant())
      // Constants are printed as the program's precision will see them.
      return n.kind == value_kind::boolean ? std::string(n.value != 0 ? "True" : "False")
             : single                       ? number_text(static_cast<float>(n.value))
                                            : number_text(n.value);
    return names[id];
  };
  // A value's type: its precision, then its shape, the batch first (`f32[B,32,16]`).
  auto typed = [&](int id) {
    const node& n = r.nodes[id];
    const value_kind k = n.kind;
    std::string dims = n.batched ? "B" : "";
    for (int a = 0; a < n.dims.rank; ++a) dims += (dims.empty() ? "" : ",") + std::to_string(n.dims.extent[a]);
    return names[id] + ":" + (k == value_kind::boolean ? "bool" : k == value_kind::tuple ? "tuple" : real_type) +
           (dims.empty() ? "" : "[" + dims + "]");
  };
  std::string s = "{ lambda ";
  bool first = true;
  for (std::size_t i = 0; i < IR::input_leaves; ++i) {
    names[r.inputs[i]] = value_name(next++);
    s += (first ? "" : " ") + typed(r.inputs[i]);
    first = false;
  }
  s += IR::input_leaves ? " . let\n" : ". let\n";
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.is_input() || n.is_constant()) continue;
    names[j] = value_name(next++);
    s += "    " + typed(static_cast<int>(j)) + " = " + n.op().name;
    if (n.is_get()) s += "[" + std::to_string(n.index()) + "]";
    s += attribute_text(n);
    if (n.op().extra().parameters != nullptr) s += n.op().extra().parameters(single);
    for (int i = 0; i < n.arity; ++i) s += " " + ref(r.operand(j, i));
    s += "\n";
  }
  s += "  in (";
  for (std::size_t o = 0; o < IR::output_leaves; ++o) s += (o ? ", " : "") + ref(r.outputs[o]);
  return s + ") }";
}

/// What `to_string` prints after a control-flow op's name (`op_info::parameters`): its
/// sub-programs, each named and nested one level in.
template <class... Sources>
std::string nested_programs_text(const std::array<const char*, sizeof...(Sources)>& names, bool single) {
  const std::string text[] = {ir_text(ir_v<Sources>, single ? "f32" : "f64", single)...};
  std::string out = "[";
  for (std::size_t k = 0; k < sizeof...(Sources); ++k) {
    out += std::string("\n      ") + names[k] + "=";
    for (char c : text[k]) out += c == '\n' ? std::string("\n      ") : std::string(1, c);
  }
  return out + "\n    ]";
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_PASSES_IR_TEXT_HPP
