/// @file tensor.hpp
/// @brief Tensors: `calx::tensor<T, dims...>` (calx/tensor_type.hpp) and its ops
/// (calx/ops/tensor_*.hpp). docs/tensors.md is the guide.
#ifndef CALX_TENSOR_HPP
#define CALX_TENSOR_HPP

#include <calx/ops/tensor_contractions.hpp>
#include <calx/ops/tensor_layout.hpp>
#include <calx/ops/tensor_logical.hpp>
#include <calx/ops/tensor_reductions.hpp>
#include <calx/tensor_type.hpp>

#endif // CALX_TENSOR_HPP
