/// @file bench/gradbench/ht_jacobian_us.cpp
/// @brief ht's Jacobian of a chunk in the us, complicated variant (ht_model.hpp): `jacfwd` of
/// its errors in the shift of every u, each row's derivative in its own u.
#include "ht_model.hpp"

namespace calx_gradbench::ht {

void complicated_jacobian_us(const hand& h, const chunk& c, calx::tensor<double, 3, chunk_size, 2>& d_u) {
  d_u = calx::jacfwd(complicated_errors, calx::argnums<1>)(h.theta, h.no_shift, *c.weights_3, *c.rest_3, *c.us, *c.points,
                                                           h.relatives, h.inverse_absolutes, h.links, h.mirror);
}

}  // namespace calx_gradbench::ht
