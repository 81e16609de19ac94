/// @file detail/exec/all_ops.hpp
/// @brief Every built-in op's traits: code generation reaches a built-in op's kernel or
/// statement by its type (detail/exec/tensor_statement.hpp), so it needs them all.
#ifndef CALX_DETAIL_EXEC_ALL_OPS_HPP
#define CALX_DETAIL_EXEC_ALL_OPS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/tensor/ir_ops.hpp>
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

#endif // CALX_DETAIL_EXEC_ALL_OPS_HPP
