/// @file bench/gradbench/ht_jacobian_complicated.cpp
/// @brief ht's Jacobian of a chunk in theta, complicated variant (ht_model.hpp): `jacfwd` of its
/// errors.
#include "ht_model.hpp"

namespace calx_gradbench::ht {

void complicated_jacobian(const hand& h, const chunk& c, calx::tensor<double, 3, chunk_size, params>& d_theta) {
  d_theta = calx::jacfwd(complicated_errors)(h.theta, h.no_shift, *c.weights_3, *c.rest_3, *c.us, *c.points, h.relatives,
                                             h.inverse_absolutes, h.links, h.mirror);
}

}  // namespace calx_gradbench::ht
