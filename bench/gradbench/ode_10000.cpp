/// @file bench/gradbench/ode_10000.cpp
/// @brief ode at n = 10000 (ode.hpp).
#include "ode.hpp"

namespace calx_gradbench::ode_eval {
template std::unique_ptr<evaluation> prepare<10000>(bool, const json&);
}
