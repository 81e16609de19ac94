/// @file calx.hpp
/// @brief The umbrella header: tracing, every transform and vmap. Optional pieces
/// (calx/simd/batch.hpp, calx/cuda/) are included separately.
#ifndef CALX_CALX_HPP
#define CALX_CALX_HPP

#include <calx/argnums.hpp>
#include <calx/axes.hpp>
#include <calx/batched.hpp>
#include <calx/checkpoint.hpp>
#include <calx/cond.hpp>
#include <calx/config.hpp>
#include <calx/custom_jvp.hpp>
#include <calx/custom_vjp.hpp>
#include <calx/device_span.hpp>
#include <calx/device_vector.hpp>
#include <calx/fori_loop.hpp>
#include <calx/grad.hpp>
#include <calx/hessian.hpp>
#include <calx/jacfwd.hpp>
#include <calx/jacrev.hpp>
#include <calx/jvp.hpp>
#include <calx/linearize.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/ops/hyperbolic.hpp>
#include <calx/ops/inverse_trigonometric.hpp>
#include <calx/ops/logical.hpp>
#include <calx/ops/powers.hpp>
#include <calx/ops/reduction.hpp>
#include <calx/ops/selection.hpp>
#include <calx/ops/smooth.hpp>
#include <calx/ops/special.hpp>
#include <calx/ops/trigonometric.hpp>
#include <calx/program.hpp>
#include <calx/reduce.hpp>
#include <calx/scan.hpp>
#include <calx/switch.hpp>
#include <calx/tensor.hpp>
#include <calx/tensor_op.hpp>
#include <calx/to_string.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>
#include <calx/tree_hana.hpp>
#include <calx/value_and_grad.hpp>
#include <calx/vjp.hpp>
#include <calx/vmap.hpp>
#include <calx/while_loop.hpp>

#endif // CALX_CALX_HPP
