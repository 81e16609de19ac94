/// @file bench/gradbench/kmeans_d16.cpp
/// @brief kmeans at d = 16 (kmeans.hpp).
#include "kmeans.hpp"

namespace calx_gradbench::kmeans {
template std::unique_ptr<evaluation> prepare<16>(bool, const json&);
}
