/// @file bench/gradbench/ht_jacobian_simple.cpp
/// @brief ht's Jacobian of a chunk, simple variant (ht_model.hpp): `jacfwd` of its errors in theta.
#include "ht_model.hpp"

namespace calx_gradbench::ht {

void simple_jacobian(const hand& h, const chunk& c, calx::tensor<double, 3, chunk_size, params>& d_theta) {
  d_theta = calx::jacfwd(simple_errors)(h.theta, *c.weights_1, *c.rest_1, *c.points, h.relatives, h.inverse_absolutes,
                                        h.links, h.mirror);
}

}  // namespace calx_gradbench::ht
