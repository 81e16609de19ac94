/// @file bench/gradbench/ht_objective.cpp
/// @brief ht's input and its objective (ht.hpp): each chunk's errors by the traced program of
/// ht_model.hpp's errors.
#include "ht.hpp"

#include <stdexcept>

namespace calx_gradbench {
namespace ht {

state read(const json& input) {
  state s;
  const json& data = input.at("data");
  const json& model = data.at("model");
  const json& theta = input.at("theta");
  if (theta.size() != params || model.at("parents").size() != bones)
    throw std::invalid_argument("calx's ht is compiled for ADBench's hand: " + std::to_string(bones) + " bones, " +
                                std::to_string(params) + " parameters; the input has " +
                                std::to_string(model.at("parents").size()) + " bones, " + std::to_string(theta.size()) +
                                " parameters");
  for (std::size_t k = 0; k < params; ++k) s.h.theta[k] = theta[k].get<double>();
  for (std::size_t b = 0; b < bones; ++b) {
    const int p = model.at("parents").at(b).get<int>();
    if (b == 0 ? p != -1 : p != 0 && p != static_cast<int>(b) - 1)
      throw std::invalid_argument("calx's ht walks a hand's skeleton (bone 0 the root, every other bone's parent bone 0 or "
                                  "the bone before it); bone " + std::to_string(b) + "'s parent is " + std::to_string(p));
    s.h.links(b, 0) = p <= 0 ? 1.0 : 0.0;
    s.h.links(b, 1) = b == 0 ? 1.0 : 0.0;
    double* relative = s.h.relatives.data() + 16 * b;
    double* inverse_absolute = s.h.inverse_absolutes.data() + 16 * b;
    read_rows(model.at("base_relatives").at(b), 4, 4, relative);
    read_rows(model.at("inverse_base_absolutes").at(b), 4, 4, inverse_absolute);
  }
  s.h.mirror[0] = model.at("is_mirrored").get<bool>() ? -1.0 : 1.0;
  s.h.mirror[1] = s.h.mirror[2] = 1.0;
  const json& positions = model.at("base_positions");
  const json& weights = model.at("weights");
  s.weights.resize(positions.size());
  s.rest.resize(positions.size());
  for (std::size_t v = 0; v < positions.size(); ++v) {
    for (std::size_t b = 0; b < bones; ++b) s.weights[v][b] = weights.at(v).at(b).get<double>();
    for (std::size_t k = 0; k < 4; ++k) s.rest[v][k] = positions.at(v).at(k).get<double>();
  }
  const json& corr = data.at("correspondences");
  const json& points = data.at("points");
  const json& us = input.at("us");
  s.c = corr.size();
  s.complicated = !us.empty();
  if (points.size() != s.c || (s.complicated && us.size() != s.c))
    throw std::invalid_argument("ht: " + std::to_string(s.c) + " correspondences, " + std::to_string(points.size()) +
                                " points and " + std::to_string(us.size()) + " us (as many points, and us or none)");
  const json& triangles = model.at("triangles");
  for (std::size_t i = 0; i < s.c; ++i) {
    const int at = corr[i].get<int>();
    if (s.complicated) {
      if (at < 0 || static_cast<std::size_t>(at) >= triangles.size())
        throw std::invalid_argument("ht: correspondence " + std::to_string(i) + " names triangle " + std::to_string(at) +
                                    " of " + std::to_string(triangles.size()));
      for (std::size_t k = 0; k < 3; ++k) s.corners.push_back(triangles[static_cast<std::size_t>(at)].at(k).get<int>());
      s.us.push_back({us[i].at(0).get<double>(), us[i].at(1).get<double>()});
    } else {
      s.corners.push_back(at);
    }
    s.points.push_back({points[i].at(0).get<double>(), points[i].at(1).get<double>(), points[i].at(2).get<double>()});
  }
  for (int v : s.corners)
    if (v < 0 || static_cast<std::size_t>(v) >= s.weights.size())
      throw std::invalid_argument("ht: a correspondence names vertex " + std::to_string(v) + " of " +
                                  std::to_string(s.weights.size()));
  return s;
}

std::unique_ptr<evaluation> prepare_objective(const json& input) {
  struct out_state {
    state s;
    std::vector<double> errors;
    heap_tensor<calx::tensor<double, 3, chunk_size>> chunk;
  };
  out_state o{read(input), {}, {}};
  o.errors.resize(3 * o.s.c);
  return make_evaluation(
      std::move(o),
      [](out_state& o) {
        state& s = o.s;
        each_chunk(s, [&](std::size_t begin, std::size_t count) {
          if (s.complicated)
            *o.chunk = calx::trace(complicated_errors, s.h.theta, s.h.no_shift, *s.gathered.weights_3, *s.gathered.rest_3, *s.gathered.us,
                                   *s.gathered.points, s.h.relatives, s.h.inverse_absolutes, s.h.links, s.h.mirror)(
                s.h.theta, s.h.no_shift, *s.gathered.weights_3, *s.gathered.rest_3, *s.gathered.us, *s.gathered.points, s.h.relatives,
                s.h.inverse_absolutes, s.h.links, s.h.mirror);
          else
            *o.chunk = calx::trace(simple_errors, s.h.theta, *s.gathered.weights_1, *s.gathered.rest_1, *s.gathered.points, s.h.relatives,
                                   s.h.inverse_absolutes, s.h.links, s.h.mirror)(
                s.h.theta, *s.gathered.weights_1, *s.gathered.rest_1, *s.gathered.points, s.h.relatives, s.h.inverse_absolutes, s.h.links, s.h.mirror);
          for (std::size_t i = 0; i < count; ++i)
            for (std::size_t j = 0; j < 3; ++j) o.errors[3 * (begin + i) + j] = (*o.chunk)[j * chunk_size + i];
        });
      },
      [](const out_state& o) { return json(o.errors); });
}

}  // namespace ht

void add_ht(registry& r) {
  r["ht"]["objective"] = ht::prepare_objective;
  r["ht"]["jacobian"] = ht::prepare_jacobian;
}

}  // namespace calx_gradbench
