/// @file to_string.hpp
/// @brief `calx::to_string(program)`: the IR printed like `jax.make_jaxpr`.
#ifndef CALX_TO_STRING_HPP
#define CALX_TO_STRING_HPP

#include <calx/config.hpp>
#include <calx/detail/passes/ir_text.hpp>

#include <string>
#include <type_traits>

CALX_BEGIN_NAMESPACE

// Declared, not included: a program comes from calx::trace (program.hpp), and printing
// one needs none of the executors that running it over batches does.
template <class Source, class Leaf, class... Args>
struct program;

/// The IR of `p` as text, one node a line, like `jax.make_jaxpr`:
/// `{ lambda a:f64 . let  b:f64 = sin a  in (b) }`. Values with one entry per sample of a
/// runtime batch are typed `f64[B]`; a control-flow op prints its sub-programs nested.
template <class Source, class Leaf, class... Args>
std::string to_string(const program<Source, Leaf, Args...>& p) {
  return detail::ir_text(p.ir, std::is_same_v<Leaf, float> ? "f32" : "f64", std::is_same_v<Leaf, float>);
}

CALX_END_NAMESPACE

#endif  // CALX_TO_STRING_HPP
