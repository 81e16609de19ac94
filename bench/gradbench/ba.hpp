/// @file bench/gradbench/ba.hpp
/// @brief GradBench's ba (evals/ba, from ADBench): bundle adjustment's residuals, the
/// reprojection error of each of p observations (camera i % n sees point i % m) and each
/// observation's weight error, and their sparse Jacobian.
///
/// Each residual is written once, for one observation; `vmap` runs it over the observations
/// and `vmap(jacrev(...))` gives each observation's 2 x 15 block of the Jacobian (11 camera
/// parameters, 3 point coordinates, the weight), which the tool writes into GradBench's
/// sparse rows as `manual` does. The observations index cameras and points, so each chunk
/// of observations gathers its cameras and points first (`chunk`): vmap reads batches of
/// samples, not indices into a table.
#ifndef CALX_BENCH_GRADBENCH_BA_HPP
#define CALX_BENCH_GRADBENCH_BA_HPP

#include "protocol.hpp"

#include <calx/calx.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace calx_gradbench::ba {

/// The reprojection error of point X seen by camera `cam` = [rotation (angle-axis, 3),
/// center (3), focal length, principal point (2), radial distortion (2)] at feature `feat`,
/// weighted by w: rotate X - center (Rodrigues; the first-order rotation at angle 0),
/// project, distort, scale and shift.
inline constexpr auto reprojection_error = [](const auto& cam, const auto& X, auto w, const auto& feat) {
  const auto r0 = cam[0], r1 = cam[1], r2 = cam[2];
  const auto p0 = X[0] - cam[3], p1 = X[1] - cam[4], p2 = X[2] - cam[5];
  const auto sq_theta = r0 * r0 + r1 * r1 + r2 * r2;
  const auto turned = sq_theta != 0.0;
  // The angle where it is not 0 (1 where it is, a value the other branch does not use, so
  // neither branch divides by 0 and its derivative stays finite).
  const auto theta = calx::sqrt(calx::where(turned, sq_theta, 1.0));
  const auto cos_t = calx::cos(theta), sin_t = calx::sin(theta), inv = 1.0 / theta;
  const auto w0 = r0 * inv, w1 = r1 * inv, w2 = r2 * inv;
  const auto along = (w0 * p0 + w1 * p1 + w2 * p2) * (1.0 - cos_t);
  const auto x0 = calx::where(turned, p0 * cos_t + (w1 * p2 - w2 * p1) * sin_t + w0 * along, p0 + (r1 * p2 - r2 * p1));
  const auto x1 = calx::where(turned, p1 * cos_t + (w2 * p0 - w0 * p2) * sin_t + w1 * along, p1 + (r2 * p0 - r0 * p2));
  const auto x2 = calx::where(turned, p2 * cos_t + (w0 * p1 - w1 * p0) * sin_t + w2 * along, p2 + (r0 * p1 - r1 * p0));
  const auto u = x0 / x2, v = x1 / x2;
  const auto r_sq = u * u + v * v;
  const auto distortion = 1.0 + cam[9] * r_sq + cam[10] * r_sq * r_sq;
  return std::pair{w * (u * distortion * cam[6] + cam[7] - feat[0]), w * (v * distortion * cam[6] + cam[8] - feat[1])};
};

/// The weight error, 1 - w^2.
inline constexpr auto weight_error = [](auto w) { return 1.0 - w * w; };

inline constexpr std::size_t cam_params = 11, chunk_size = 2048;

// Samples are std::arrays, read by element as numbers: a calx::tensor's element reads cost
// the reverse pass a node per element of the tensor each, and this TU twice the compile time.
using camera = std::array<double, cam_params>;
using point = std::array<double, 3>;
using feature = std::array<double, 2>;

/// The eval's input, replicated as GradBench's C++ tools do (cpp/gradbench/evals/ba.hpp),
/// and one chunk of gathered observations.
struct state {
  std::size_t n = 0, m = 0, p = 0;
  std::vector<camera> cams;
  std::vector<point> X;
  std::vector<double> w;
  std::vector<feature> feats;
  std::vector<int> obs;  // camera, point of each observation
  std::vector<camera> chunk_cams;
  std::vector<point> chunk_X;
};

inline state read(const json& input) {
  state s;
  s.n = input.at("n").get<std::size_t>();
  s.m = input.at("m").get<std::size_t>();
  s.p = input.at("p").get<std::size_t>();
  if (s.n == 0 || s.m == 0)
    throw std::invalid_argument("ba: n and m must be at least 1; the input has n = " + std::to_string(s.n) +
                                ", m = " + std::to_string(s.m));
  const auto cam = input.at("cam").get<camera>();
  const auto x = input.at("x").get<point>();
  const auto feat = input.at("feat").get<feature>();
  s.cams.assign(s.n, cam);
  s.X.assign(s.m, x);
  s.w.assign(s.p, input.at("w").get<double>());
  s.feats.assign(s.p, feat);
  s.obs.resize(2 * s.p);
  for (std::size_t i = 0; i < s.p; ++i) {
    s.obs[2 * i] = static_cast<int>(i % s.n);
    s.obs[2 * i + 1] = static_cast<int>(i % s.m);
  }
  s.chunk_cams.resize(chunk_size);
  s.chunk_X.resize(chunk_size);
  return s;
}

/// Calls `f(begin, count)` for each chunk of observations after gathering its cameras and
/// points into s.chunk_cams and s.chunk_X.
template <class F>
void each_chunk(state& s, F f) {
  for (std::size_t begin = 0; begin < s.p; begin += chunk_size) {
    const std::size_t count = std::min(chunk_size, s.p - begin);
    for (std::size_t i = 0; i < count; ++i) {
      s.chunk_cams[i] = s.cams[static_cast<std::size_t>(s.obs[2 * (begin + i)])];
      s.chunk_X[i] = s.X[static_cast<std::size_t>(s.obs[2 * (begin + i) + 1])];
    }
    f(begin, count);
  }
}

std::unique_ptr<evaluation> prepare_objective(const json& input);
std::unique_ptr<evaluation> prepare_jacobian(const json& input);

}  // namespace calx_gradbench::ba

#endif
