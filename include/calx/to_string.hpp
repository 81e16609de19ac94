/// @file to_string.hpp
/// @brief `calx::to_string(program)`: the IR printed like `jax.make_jaxpr`.
#ifndef CALX_TO_STRING_HPP
#define CALX_TO_STRING_HPP

#include <calx/config.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/program.hpp>

#include <charconv>
#include <string>
#include <type_traits>

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
  auto typed = [&](int id) {
    const value_kind k = r.nodes[id].kind;
    return names[id] + ":" + (k == value_kind::boolean ? "bool" : k == value_kind::tuple ? "tuple" : real_type) +
           (r.nodes[id].batched ? "[B]" : "");
  };
  std::string s = "{ lambda ";
  for (std::size_t i = 0; i < IR::input_count; ++i) {
    names[r.inputs[i]] = value_name(next++);
    s += (i ? " " : "") + typed(r.inputs[i]);
  }
  s += IR::input_count ? " . let\n" : ". let\n";
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.is_input() || n.is_constant()) continue;
    names[j] = value_name(next++);
    s += "    " + typed(static_cast<int>(j)) + " = " + n.op().name;
    if (n.is_get()) s += "[" + std::to_string(n.index()) + "]";
    for (int i = 0; i < n.arity; ++i) s += " " + ref(r.operand(j, i));
    s += "\n";
  }
  s += "  in (";
  for (std::size_t o = 0; o < IR::output_count; ++o) s += (o ? ", " : "") + ref(r.outputs[o]);
  return s + ") }";
}

}  // namespace detail

/// The IR of `p` as text, one node a line, like `jax.make_jaxpr`:
/// `{ lambda a:f64 . let  b:f64 = sin a  in (b) }`. Values with one entry per sample of a
/// runtime batch are typed `f64[B]`.
template <class Source, class Leaf, class... Args>
std::string to_string(const program<Source, Leaf, Args...>& p) {
  return detail::ir_text(p.ir, std::is_same_v<Leaf, float> ? "f32" : "f64", std::is_same_v<Leaf, float>);
}

CALX_END_NAMESPACE

#endif // CALX_TO_STRING_HPP
