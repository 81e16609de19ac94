/// @file bench/ode_f32.cpp
/// @brief bench_ode in float: its programs compiled in a translation unit of their own
/// (bench/ode.hpp; bench/ode.cpp has double and main).
#include "ode.hpp"

template void calx_bench::ode::register_type<float>();
