/// @file detail/diagnostics.hpp
/// @brief Every compile-time message calx gives, in one place. Each names the API, says
/// what is wrong and what to do.
#ifndef CALX_DETAIL_DIAGNOSTICS_HPP
#define CALX_DETAIL_DIAGNOSTICS_HPP

#include <calx/detail/internal_header_check.hpp>

#define CALX_MSG_BRANCH_ON_TRACER                                                              \
  "calx: a traced comparison was used as a bool (an if, ?:, std::max on a traced value, or "    \
  "&& / || between a mask and a number). calx traces the function once at compile time, so it " \
  "cannot branch on values: use calx::where(cond, a, b) to select, calx::min / calx::max "      \
  "instead of std::min / std::max, and &&, ||, ! between masks"

#define CALX_MSG_MASK_AS_NUMBER                                                                \
  "calx: a mask (what a comparison gives) is used as a number, by the op named in the template " \
  "argument above. A mask is true or false, not 1 or 0: select with calx::where(mask, a, b) "   \
  "(calx::where(mask, 1.0, 0.0) gives 1 or 0), and combine masks with &, |, ! "                 \
  "(calx::logical_and, calx::logical_or, calx::logical_not)"

#define CALX_MSG_STD_MATH                                                                      \
  "calx: a traced value (calx::tracer) is used where a plain double is needed, most often by a "  \
  "std:: math function: write calx::sin, calx::exp, calx::pow, calx::abs, ... instead of "      \
  "std::sin, std::exp, std::pow, std::abs (they record the operation, and still work on plain "  \
  "numbers). While calx traces the function a value has no number to convert"

#define CALX_MSG_CAPTURES                                                                      \
  "calx: the function has state (a lambda with captures, or a function object with data "      \
  "members); calx traces functions at compile time and needs a stateless callable. Pass the "  \
  "captured values as arguments instead (and pick what to differentiate with calx::argnums)"

#define CALX_MSG_NOT_CALLABLE                                                                  \
  "calx: the function cannot be called with these arguments. calx calls it with one traced "   \
  "value (calx::tracer) per float/double leaf of each argument: check the number of "          \
  "arguments, and write the function as a generic lambda, e.g. [](auto x, auto y) { ... }"

#define CALX_MSG_NOT_CONSTEXPR                                                                 \
  "calx: the function could not be traced at compile time. Everything it calls must be "       \
  "usable in a constant expression: lambdas are implicitly constexpr, but helper functions "   \
  "must be declared constexpr, math must go through calx:: functions (calx::sin, not "         \
  "std::sin), and it must not read globals or other runtime state (pass data as arguments). "  \
  "If the next error shows a call to calx::detail::trace_error, its text says what calx found. "  \
  "A transform (grad, jvp, ...) of a function that reduces over a runtime batch, called inside "  \
  "another trace, must get the batch as a calx::batch_tracer: the type a traced function "        \
  "receives for a std::vector or std::span argument, and the type arithmetic and calx:: "          \
  "functions give when an operand is one. A batch stored in a calx::tracer has lost that type: "  \
  "keep it in an auto variable"

#define CALX_MSG_COND_STATELESS                                                                 \
  "calx::cond: with a traced predicate, true_fn and false_fn must be stateless (captureless "    \
  "lambdas): each is traced once into a sub-program. Pass what they need as operands"
#define CALX_MSG_COND_OPERANDS                                                                  \
  "calx::cond: the operands must be numbers, traced scalars or calx::tensors, alone or in "      \
  "std::arrays, tuples and pairs (no runtime batches: call cond inside the function vmap maps)"
#define CALX_MSG_COND_RESULTS                                                                   \
  "calx::cond: true_fn and false_fn must return the same type: the same structure of scalars "   \
  "and tensors (with a traced predicate both are traced; on a plain bool, of the same "          \
  "precision too)"
#define CALX_MSG_SWITCH_BRANCHES                                                                \
  "calx::switch_: the branches must be a std::tuple of functions, std::tuple{fn0, fn1, ...}, "   \
  "each taking the operands and returning the same type"
#define CALX_MSG_SWITCH_INDEX                                                                   \
  "calx::switch_: the index must be an integer (a plain one picks the branch now) or a traced " \
  "value (an integer argument of the traced function, or a real one, truncated as JAX does)"
#define CALX_MSG_SWITCH_STATELESS                                                               \
  "calx::switch_: with a traced index, every branch must be stateless (captureless lambdas): "  \
  "each is traced once into a sub-program. Pass what they need as operands"

#define CALX_MSG_LOOP_BOUNDS                                                                    \
  "calx::fori_loop: lower and upper must be integers (plain ones, or integer arguments of the "  \
  "traced function, which calx traces as values)"
#define CALX_MSG_LOOP_STATELESS                                                                 \
  "calx::fori_loop: on traced values the body must be stateless (a captureless lambda): it is "  \
  "traced once into a sub-program. Put what it needs into the carry"
#define CALX_MSG_LOOP_CARRY_LEAVES                                                              \
  "calx::fori_loop: the carry must hold float, double or traced scalars and calx::tensors of "     \
  "them, alone or in std::arrays, tuples and pairs (an integer counter: make it a double)"
#define CALX_MSG_LOOP_CARRY                                                                     \
  "calx::fori_loop: body(i, carry) must return a carry of the type of init (the same "           \
  "structure, and on numbers the same precision): the carry cannot change type between steps"

#define CALX_MSG_CHECKPOINT_ARGUMENTS                                                           \
  "calx::checkpoint: on traced values the arguments must be real: float, double, traced "        \
  "scalars and calx::tensors, in std::arrays, tuples and pairs (no integers, no runtime batches: " \
  "checkpoint inside the function vmap maps instead)"
#define CALX_MSG_CHECKPOINT_POLICY                                                              \
  "calx::checkpoint: the second argument must be a policy: calx::policy::nothing_saveable "      \
  "(the default) or calx::policy::everything_saveable"

#define CALX_MSG_SCAN_INPUTS                                                                    \
  "calx::scan: xs must be a calx::tensor of floats or doubles (its leading axis: the steps), "   \
  "or std::arrays, tuples and pairs of them, all of one leading length; f receives one slice "   \
  "of each per step (an element of a 1-D tensor, a tensor of the trailing axes otherwise)"
#define CALX_MSG_SCAN_CARRY_LEAVES                                                              \
  "calx::scan: the carry must hold float, double or traced scalars and calx::tensors of them, "  \
  "alone or in std::arrays, tuples and pairs (an integer counter: make it a double)"
#define CALX_MSG_SCAN_STATELESS                                                                 \
  "calx::scan: on traced values f must be stateless (a captureless lambda): it is traced once "  \
  "into a sub-program. Put what it needs into the carry or into xs"
#define CALX_MSG_SCAN_RESULT                                                                    \
  "calx::scan: f(carry, x) must return std::pair{carry, y}: the next carry and this step's "     \
  "output (scalars, alone or in std::arrays, tuples and pairs; std::tuple{} for none)"
#define CALX_MSG_SCAN_CARRY                                                                     \
  "calx::scan: f(carry, x).first must be a carry of the type of init (the same structure, and "  \
  "on numbers the same precision): the carry cannot change type between steps"
#define CALX_MSG_SCAN_OUTPUTS                                                                   \
  "calx::scan: f(carry, x).second must hold float, double or traced scalars and calx::tensors, " \
  "alone or in std::arrays, tuples and pairs: each is stacked along a new leading axis over "    \
  "the steps"

#define CALX_MSG_WHILE_STATELESS                                                                \
  "calx::while_loop: on traced values cond_fn and body_fn must be stateless (captureless "       \
  "lambdas): each is traced once into a sub-program. Put what they need into the carry"
#define CALX_MSG_WHILE_CARRY_LEAVES                                                             \
  "calx::while_loop: the carry must hold float, double or traced scalars and calx::tensors of "   \
  "them, alone or in std::arrays, tuples and pairs (an integer counter: make it a double)"
#define CALX_MSG_WHILE_CARRY                                                                    \
  "calx::while_loop: body_fn(carry) must return a carry of the type of init (the same "          \
  "structure, and on numbers the same precision): the carry cannot change type between steps"
#define CALX_MSG_WHILE_CONDITION                                                                \
  "calx::while_loop: cond_fn(carry) must return a bool or a traced comparison (calx::bool_tracer, "  \
  "or a rank-0 calx::tensor<bool>, a comparison of reductions)"

#define CALX_MSG_BAD_LEAF                                                                      \
  "calx: unsupported argument type. Arguments are float or double scalars (or integers, which "  \
  "are never differentiated), or std::array, std::tuple, std::pair or Boost.Hana structs of them "  \
  "(nested as you like), or a type that specialises calx::tree_node"

#define CALX_MSG_BATCH_OF_STRUCTURES                                                           \
  "calx: a runtime batch (std::vector or std::span) whose samples calx cannot trace: samples are "  \
  "float or double numbers, or structures of them (std::array, tuples, calx::tensor, Hana "          \
  "structs); integer samples and batches of batches are not supported. Pass integers once, "         \
  "not per sample, or convert them to the batch's precision"

#define CALX_MSG_STRUCT_NOT_TRACEABLE                                                          \
  "calx: this struct argument cannot hold traced values: its members are fixed float or "      \
  "double types. Make it a class template over its number type, template <class T> struct S { " \
  "BOOST_HANA_DEFINE_STRUCT(S, (T, a), ...); }, so that calx can trace S<calx::tracer> "         \
  "(or give calx::tree_node<S> a `with` that rebuilds it with other leaves)"

#define CALX_MSG_MIXED_PRECISION                                                               \
  "calx: the arguments mix float and double leaves; calx compiles one program per precision. " \
  "Convert them to one type before the call"

#define CALX_MSG_BAD_OUTPUT                                                                    \
  "calx: the function must return traced values: a calx::tracer (from arithmetic on its "      \
  "arguments), or a std::tuple, std::pair or std::array of them. A plain number that does "    \
  "not depend on the arguments is fine inside, but wrap constant outputs as x * 0 + c"

#define CALX_MSG_BOOL_OUTPUT                                                                   \
  "calx: the function returns a traced comparison (a mask). Return a real value, e.g. "        \
  "calx::where(mask, 1.0, 0.0)"

// Messages for the transforms take the API's name, a string literal, e.g.
// CALX_MSG_NOT_SCALAR("grad").
#define CALX_MSG_CAPTURES_IN(api)                                                              \
  "calx::" api ": the function captures state (a lambda with captures, or a function object "   \
  "with data members); calx traces functions at compile time and needs a stateless callable. " \
  "Pass the captured values as arguments instead (and use calx::argnums to pick what to "      \
  "differentiate)"

#define CALX_MSG_NOT_SCALAR(api)                                                               \
  "calx::" api ": the function must return one scalar (a float or double), but it returns "     \
  "several values. For functions with several outputs use calx::jacrev, calx::jacfwd or "      \
  "calx::vjp"

#define CALX_MSG_ARGNUMS_EMPTY(api) "calx::" api ": calx::argnums<> is empty; name at least one argument, e.g. calx::argnums<0>"
#define CALX_MSG_ARGNUMS_RANGE(api)                                                            \
  "calx::" api ": an index in calx::argnums is out of range for the number of arguments the "   \
  "function was called with (valid: 0 .. n-1, or -n .. -1 counting from the end)"
#define CALX_MSG_ARGNUMS_INTEGER(api)                                                          \
  "calx::" api ": calx::argnums names an argument with integer values; integers are passed to "  \
  "the function but never differentiated (like JAX's static arguments). Leave it out of "         \
  "calx::argnums, or pass it as a float or double to differentiate it"
#define CALX_MSG_INTEGER_PRIMAL(api)                                                           \
  "calx::" api ": a primal has integer values; " api " differentiates every primal, and integers " \
  "are never differentiated. Name the arguments to differentiate with calx::argnums<...> (jvp, "  \
  "linearize, grad, jacfwd, jacrev take it), or wrap the function in a lambda that takes the "      \
  "integer as a fixed argument"
#define CALX_MSG_ARGNUMS_UNIQUE(api) "calx::" api ": calx::argnums names the same argument twice"
#define CALX_MSG_BAD_OPTION(api)                                                               \
  "calx::" api ": unknown option; the options are calx::argnums<...> and calx::has_aux"
#define CALX_MSG_AUX_PAIR(api)                                                                 \
  "calx::" api ": with calx::has_aux the function must return std::pair{value, aux}"
#define CALX_MSG_TANGENT_STRUCTURE                                                             \
  "calx::jvp: the tangents must have the same structure and precision as the primals "         \
  "(one tangent per primal, std::tuple{tx, ty} for std::tuple{x, y}; with calx::argnums, one "   \
  "per argument it names, in its order)"
#define CALX_MSG_JVP_TUPLES                                                                    \
  "calx::jvp(f, primals, tangents): primals and tangents are std::tuple{...} of the arguments, " \
  "e.g. calx::jvp(f, std::tuple{x, y}, std::tuple{tx, ty})"
#define CALX_MSG_COTANGENT_STRUCTURE                                                           \
  "calx::vjp: the pullback takes one cotangent with the structure and precision of the "       \
  "function's output (a scalar for a scalar function)"
#define CALX_MSG_LINEAR_TANGENT_STRUCTURE                                                      \
  "calx::linearize: the linear map takes one tangent per primal (with calx::argnums, per "      \
  "argument it names, in its order), each with the primal's structure and precision"

#define CALX_MSG_IN_AXES                                                                       \
  "calx::vmap: calx::in_axes takes one entry per argument (or one for all), each 0 (batched "    \
  "along the first axis) or calx::none (the same value for every sample)"
#define CALX_MSG_OUT_AXES                                                                      \
  "calx::vmap: calx::out_axes takes one entry per element of the returned tuple or pair (or "   \
  "one for all), each 0 or calx::none"
#define CALX_MSG_OUT_AXES_NONE                                                                 \
  "calx::vmap: out_axes is calx::none for an output that depends on a batched argument; "        \
  "use 0 (one value per sample)"
#define CALX_MSG_NOTHING_BATCHED                                                               \
  "calx::vmap: no argument is batched; give at least one argument in_axes 0"
#define CALX_MSG_BATCH_SOURCE                                                                  \
  "calx::vmap: an argument with in_axes 0 must be a batch: a std::vector, std::span, "            \
  "calx::batched or std::array whose elements are float, double, or std::array/std::tuple/"       \
  "std::pair of them (integers are not batched: give them calx::none)"
#define CALX_MSG_STATIC_LENGTHS                                                                \
  "calx::vmap: batched std::array arguments must all have the same length"
#define CALX_MSG_BROADCAST_BATCH                                                               \
  "calx::vmap: an argument with calx::none (broadcast to every sample) is a batch (a "             \
  "std::vector or std::span); give it in_axes 0, or pass one sample's value"
#define CALX_MSG_INTO_STRUCTURE                                                                \
  "calx::vmap: .into(out): out must have the result's structure: for each per-sample result X a "   \
  "contiguous range of X (std::span<X>, std::vector<X>, calx::batched<X>, std::array<X, N>) or, "   \
  "where X is a std::array/tuple/pair, the same std::array/tuple/pair of such ranges; and an X "    \
  "for each calx::none output"
#define CALX_MSG_INTO_TEMPORARY                                                                \
  "calx::vmap: .into(out) got a temporary container, which would be destroyed with the results "    \
  "written into it; pass a named buffer, or a view of one (std::span, or a tuple of spans and "      \
  "references)"
#define CALX_MSG_DEVICE_BACKEND                                                                \
  "calx::vmap: a calx::device_span argument runs f as a CUDA kernel: compile this file with nvcc "  \
  "(-std=c++20 --expt-relaxed-constexpr), or define CALX_DEVICE_ON_HOST to run the device path "     \
  "serially on the host (for tests)"
#define CALX_MSG_DEVICE_MIXED                                                                  \
  "calx::vmap: some batched arguments are calx::device_span (device memory) and some are host "     \
  "ranges; pass every batched argument in the same memory (calx::device_vector copies to the "      \
  "device)"
#define CALX_MSG_DEVICE_INTO                                                                   \
  "calx::vmap: a vmap over device memory writes into device buffers you give: call "               \
  ".into(out) with calx::device_span results (calx::device_vector allocates them) before the "      \
  "arguments"
#define CALX_MSG_DEVICE_DEST                                                                   \
  "calx::vmap: .into(out) mixes memories: a vmap over calx::device_span arguments writes "          \
  "calx::device_span results, a vmap over host ranges host ranges"
#define CALX_MSG_DEVICE_RESULTS                                                                \
  "calx: over calx::device_span batches, grad and value_and_grad return their per-sample "         \
  "results as calx::device_vector; this transform's per-sample results (jvp's tangents, aux "       \
  "data) would be host columns: use calx::vmap over the device spans with .into(...) instead"
#define CALX_MSG_DEVICE_STREAM                                                                 \
  "calx::vmap: .on(stream) takes a CUDA stream (cudaStream_t) or nullptr (the default stream)"
#define CALX_MSG_VMAP_OPTION "calx::vmap: unknown option; the options are calx::in_axes<...> and calx::out_axes<...>"

#define CALX_MSG_JACOBIAN_RANK(api)                                                            \
  "calx::" api ": the result would have more than 4 axes (a Jacobian's are the output's, then "    \
  "the argument's; a Hessian's the argument's twice), and calx::tensor has at most 4. Reshape "   \
  "the argument or the output to fewer axes first (calx::reshape)"
#define CALX_MSG_BATCH_JACOBIAN(api)                                                           \
  "calx::" api ": arguments that are runtime batches (std::vector, std::span) are supported by "  \
  "grad, value_and_grad and jvp; for per-sample Jacobians and Hessians use "                     \
  "calx::vmap(calx::" api "(f)) over the batch"
#define CALX_MSG_PER_SAMPLE_OUTPUT(api)                                                        \
  "calx::" api ": the function returns one value per sample of a batch, not a scalar. Reduce "    \
  "it with calx::sum or calx::mean, or use calx::vmap(calx::" api "(f)) for per-sample gradients. "  \
  "(Over a batch of tensors, calx::sum(t) sums each sample's elements: map the per-sample work with " \
  "calx::vmap and sum its results)"
#define CALX_MSG_BATCH_PARTIAL(api)                                                            \
  "calx::" api ": arguments that are runtime batches (std::vector, std::span) are not supported "  \
  "here yet; use calx::grad, calx::jvp, or calx::vmap over the batch"

#define CALX_MSG_VJP_RULE_COUNT                                                                \
  "calx: an op's vjp rule must return one cotangent per operand (a std::array of arity "          \
  "values); see docs/extending.md"
#define CALX_MSG_DECOMPOSITION_RESULT                                                          \
  "calx: an op's decomposition must return one traced value (or a number), written with calx "    \
  "functions on its operands; see docs/extending.md"

// custom_vjp and custom_jvp. `api` is "custom_vjp" or "custom_jvp".
#define CALX_MSG_CUSTOM_TENSOR(api)                                                            \
  "calx::" api ": tensor arguments are not supported yet (an element t(i) is a rank-0 tensor "    \
  "too); write the rule as a user op (calx::op_traits with its own vjp or jvp), which applies "    \
  "to tensors elementwise: see docs/extending.md"
#define CALX_MSG_CUSTOM_CALLABLE(api)                                                          \
  "calx::" api ": the forward function cannot be called with these arguments; write it as a "   \
  "generic lambda, e.g. [](auto x, auto y) { ... }, taking the arguments the function is called with"
#define CALX_MSG_CUSTOM_PAIR(api, closure)                                                     \
  "calx::" api ": the forward function must return std::pair{result, " closure "}: the result "  \
  "and a closure (a lambda) over what the rule needs, e.g. return std::pair{y, [=](auto g) { ... }}"
#define CALX_MSG_CUSTOM_RESULT(api)                                                            \
  "calx::" api ": the result (the pair's first element) must be traced values: a calx::tracer, "  \
  "or a std::tuple, std::pair or std::array of them"
#define CALX_MSG_CUSTOM_VJP_BACKWARD_ARGS                                                      \
  "calx::custom_vjp: the backward closure must take one cotangent with the result's structure "  \
  "(a single traced value for a scalar result), e.g. [=](auto g) { ... }"
#define CALX_MSG_CUSTOM_VJP_COUNT                                                              \
  "calx::custom_vjp: the backward closure must return a std::tuple with one cotangent per "        \
  "argument of the function, in order: std::tuple{g * y, g * x} for (x, y)"
#define CALX_MSG_CUSTOM_VJP_LEAVES                                                             \
  "calx::custom_vjp: a cotangent the backward returns has the wrong structure or precision: each "   \
  "must have its argument's structure, with traced values or double numbers as leaves (write 0.0, "  \
  "not 0 or 0.0f: numbers in a rule become constants of the program's precision)"
#define CALX_MSG_CUSTOM_JVP_ARGS                                                               \
  "calx::custom_jvp: the jvp closure must take one tangent per argument of the function, each "    \
  "with its argument's structure, e.g. [=](auto tx, auto ty) { ... }"
#define CALX_MSG_CUSTOM_JVP_LEAVES                                                             \
  "calx::custom_jvp: the jvp closure's tangent has the wrong structure or precision: it must have " \
  "the result's structure, with traced values or double numbers as leaves"
#define CALX_MSG_CUSTOM_JVP_NOT_LINEAR                                                         \
  "calx::custom_jvp: the jvp closure is not linear in its tangents (a tangent times a tangent, a "  \
  "tangent through a nonlinear op such as calx::sin, a comparison of tangents, or a result that "    \
  "is not zero when the tangents are). calx transposes this closure for reverse mode, which needs "  \
  "it linear: compute what depends on the primals outside the tangents (t * calx::cos(x))"

#define CALX_MSG_TRANSPOSE_RANK                                                                \
  "calx::transpose: the tensor has rank 3 or more; calx transposes matrices (rank 2), and a "     \
  "tensor of rank 0 or 1 is its own transpose. A permutation of more axes is not in calx yet: "   \
  "reshape to a matrix (calx::reshape<M, N>(t)), or build the result from calx::take slices"

// An op reached by a transform without the rule it needs and without a decomposition is
// reported by the compiler's error at a call to
// calx::detail::{forward,reverse}_mode_needs_op_traits_{jvp,vjp}_or_decomposition_for<Op>
// (detail/call/transform_support.hpp): the function's name is the message, its template
// argument the op.

#endif // CALX_DETAIL_DIAGNOSTICS_HPP
