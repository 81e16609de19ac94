/// @file bench/gradbench/ode_1000.cpp
/// @brief ode at n = 1000 (ode.hpp), and the module's entry.
#include "ode.hpp"

namespace calx_gradbench {
namespace ode_eval {
template std::unique_ptr<evaluation> prepare<1000>(bool, const json&);
}

void add_ode(registry& r) {
  for (const bool gradient : {false, true})
    r["ode"][gradient ? "gradient" : "primal"] = [gradient](const json& input) {
      switch (const std::size_t n = input.at("x").size()) {
        case 1000: return ode_eval::prepare<1000>(gradient, input);
        case 10000: return ode_eval::prepare<10000>(gradient, input);
        case 100000: return ode_eval::prepare<100000>(gradient, input);
        default: throw unsupported_size("ode: n", n, {1000, 10000, 100000});
      }
    };
}

}  // namespace calx_gradbench
