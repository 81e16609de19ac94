/// @file bench/gradbench/ode_100000.cpp
/// @brief ode at n = 100000 (ode.hpp).
#include "ode.hpp"

namespace calx_gradbench::ode_eval {
template std::unique_ptr<evaluation> prepare<100000>(bool, const json&);
}
