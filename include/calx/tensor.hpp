/// @file tensor.hpp
/// @brief Tensors: `calx::tensor<T, dims...>` (calx/tensor_type.hpp) and its ops
/// (calx/ops/tensor_*.hpp). docs/tensors.md is the guide.
#ifndef CALX_TENSOR_HPP
#define CALX_TENSOR_HPP

#include <calx/tensor/contractions.hpp>
#include <calx/tensor/indexing.hpp>
#include <calx/tensor/layout.hpp>
#include <calx/tensor/logical.hpp>
#include <calx/tensor/reductions.hpp>
#include <calx/tensor_type.hpp>

#endif // CALX_TENSOR_HPP
