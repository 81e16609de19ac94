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
      return dispatch_size<ode_eval::ode_sizes>(input.at("x").size(), "ode: n", [&]<std::size_t I>() {
        return ode_eval::prepare<ode_eval::ode_sizes[I]>(gradient, input);
      });
    };
}

}  // namespace calx_gradbench
