/// @file bench/gradbench/kmeans_d8.cpp
/// @brief kmeans at d = 8 (kmeans.hpp), and the module's entry.
#include "kmeans.hpp"

namespace calx_gradbench {
namespace kmeans {
template std::unique_ptr<evaluation> prepare<8>(bool, const json&);
}

void add_kmeans(registry& r) {
  for (const bool dir : {false, true})
    r["kmeans"][dir ? "dir" : "cost"] = [dir](const json& input) {
      const std::size_t d = input.at("points").at(0).size();
      if (d == 8) return kmeans::prepare<8>(dir, input);
      if (d == 16) return kmeans::prepare<16>(dir, input);
      throw unsupported_size("kmeans: d", d, {8, 16});
    };
}

}  // namespace calx_gradbench
