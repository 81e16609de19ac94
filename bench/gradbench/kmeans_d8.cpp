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
      return dispatch_size<kmeans::ds>(input.at("points").at(0).size(), "kmeans: d",
                                       [&]<std::size_t I>() { return kmeans::prepare<kmeans::ds[I]>(dir, input); });
    };
}

}  // namespace calx_gradbench
