/// @file bench/gradbench/ht_model.hpp
/// @brief GradBench's ht (evals/ht, from ADBench), the model: hand tracking. A skinned hand of
/// 22 bones posed by 26 parameters theta (global rotation and translation, four angles a
/// finger), and for each of c observed points the error against the model point it
/// corresponds to: a vertex (the simple variant) or the point of a triangle at barycentric
/// coordinates u (the complicated one). The Jacobian is in theta (and in each point's u).
///
/// The errors are written once, for a chunk of 256 correspondences, as tensor programs: the
/// bones' transforms from theta (one `scan` over the bones), skinning as one matrix product
/// of them with the chunk's weighted rest positions, then the global transform. The
/// Jacobian is `jacfwd`'s: one forward pass a parameter, each the bones' transforms' tangent
/// and one matrix product for the chunk.
#ifndef CALX_BENCH_GRADBENCH_HT_MODEL_HPP
#define CALX_BENCH_GRADBENCH_HT_MODEL_HPP

#include <calx/calx.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace calx_gradbench::ht {

inline constexpr std::size_t bones = 22, params = 26;

/// Which entry of theta (or `params`: the 0 after it) is each bone's angle about its x and z
/// axes, as ADBench's to_pose_params lays them out: after the global rotation and
/// translation, each finger's second bone two angles (x, z), its third and fourth one each.
/// No bone is turned about its y axis (to_pose_params leaves that angle 0).
inline constexpr calx::tensor<int, bones, 2> angle_of = [] {
  calx::tensor<int, bones, 2> t{};
  for (std::size_t b = 0; b < bones; ++b)
    for (std::size_t k = 0; k < 2; ++k) t(b, k) = static_cast<int>(params);
  int next = 6;
  for (std::size_t finger = 0; finger < 5; ++finger)
    for (std::size_t joint = 0; joint < 3; ++joint) {
      const std::size_t b = 2 + 4 * finger + joint;
      t(b, 0) = next++;
      if (joint == 0) t(b, 1) = next++;
    }
  return t;
}();

inline constexpr calx::tensor<double, 4, 4> identity4 = [] {
  calx::tensor<double, 4, 4> t{};
  for (std::size_t k = 0; k < 4; ++k) t(k, k) = 1.0;
  return t;
}();

// A rotation about axis A is fixed + cos(angle) on_cos + sin(angle) on_sin.
template <int A>
inline constexpr std::array<calx::tensor<double, 3, 3>, 3> axis_rotation = [] {
  std::array<calx::tensor<double, 3, 3>, 3> r{};
  constexpr int a = (A + 1) % 3, b = (A + 2) % 3;
  r[0](A, A) = 1.0;
  r[1](a, a) = 1.0;
  r[1](b, b) = 1.0;
  r[2](b, a) = 1.0;
  r[2](a, b) = -1.0;
  return r;
}();
template <int A, class C, class S>
constexpr auto rotation_about(const C& c, const S& s) {
  return axis_rotation<A>[0] + c * axis_rotation<A>[1] + s * axis_rotation<A>[2];
}
inline constexpr calx::tensor<double, 3, 3> identity = [] {
  calx::tensor<double, 3, 3> t{};
  for (std::size_t k = 0; k < 3; ++k) t(k, k) = 1.0;
  return t;
}();
// [w]x, the cross product with w, as a linear map of w: reshape<3, 3>(matvec(cross_of, w)).
inline constexpr calx::tensor<double, 9, 3> cross_of = [] {
  calx::tensor<double, 9, 3> t{};
  for (int k = 0; k < 3; ++k)
    for (int e = 0; e < 9; ++e) t(e, k) = axis_rotation<0>[2][e] * (k == 0) + axis_rotation<1>[2][e] * (k == 1) + axis_rotation<2>[2][e] * (k == 2);
  return t;
}();
inline constexpr calx::tensor<double, 1> zero{};

/// ADBench's Euler angles (about x, then z; y is 0) as Rz Rx (its Rz Ry Rx).
inline constexpr auto euler_rotation = [](const auto& xz) {
  const auto c = calx::cos(xz), s = calx::sin(xz);
  return calx::matmul(rotation_about<2>(c(1), s(1)), rotation_about<0>(c(0), s(0)));
};

/// Rodrigues' formula for the rotation by an angle-axis vector: the identity below an angle
/// of 1e-4, as ADBench's angle_axis_to_rotation_matrix.
inline constexpr auto angle_axis_rotation = [](const auto& aa) {
  const auto sq = calx::sum(aa * aa);
  const auto small = sq < 1e-8;
  // The angle where it is not small (1 where it is: a value the identity's branch does not
  // use, so neither branch divides by 0).
  const auto angle = calx::sqrt(calx::where(small, 1.0, sq));
  const auto w = aa / angle;
  const auto c = calx::cos(angle);
  const auto turned = c * identity + (1.0 - c) * calx::outer(w, w) +
                      calx::sin(angle) * calx::reshape<3, 3>(calx::matvec(cross_of, w));
  return calx::where(small, identity, turned);
};

/// The bones' transforms from the rest pose to the posed hand, rows 0..2 of each (the last
/// is 0 0 0 1), laid out for skinning: row j, column 22k + b is bone b's entry (j, k). A
/// bone's absolute transform is its parent's times its relative one turned by its Euler
/// angles; its transform is that times the inverse of its absolute rest transform. One
/// `scan` over the bones in order (`relatives`, `inverse_absolutes`: tensor<double, 22, 16>,
/// 4 x 4 row major). A hand's skeleton is the root (bone 0) and chains of bones from it, so
/// the walk keeps two absolutes, the root's and the last bone's: `links` says for each bone
/// whether it hangs from the root (or is it: the identity then) and whether it is the root.
inline constexpr auto bone_transforms = [](const auto& theta, const auto& relatives, const auto& inverse_absolutes,
                                           const auto& links) {
  const auto angles = calx::take(calx::concatenate(theta, zero), angle_of);
  const auto [last, transforms] = calx::scan(
      [](const auto& carry, const auto& bone) {
        const auto& [root, previous] = carry;
        const auto& [relative, inverse_absolute, angle, link] = bone;
        const auto from_root = link(0), is_root = link(1);
        // The relative transform turned: its first three columns times the rotation.
        const auto rest = calx::reshape<4, 4>(relative);
        const auto turned = calx::concatenate(calx::matmul(calx::slice<0, 3>(rest, calx::axis<1>), euler_rotation(angle)),
                                              calx::slice<3, 4>(rest, calx::axis<1>), calx::axis<1>);
        const auto absolute = calx::matmul(from_root * root + (1.0 - from_root) * previous, turned);
        const auto transform = calx::slice<0, 3>(calx::matmul(absolute, calx::reshape<4, 4>(inverse_absolute)));
        return std::pair{std::pair{is_root * absolute + (1.0 - is_root) * root, absolute}, calx::reshape<12>(transform)};
      },
      // Before the walk, the "root" is the identity: the root bone hangs from it.
      std::pair{identity4, identity4}, std::tuple{relatives, inverse_absolutes, angles, links});
  return calx::reshape<3, 4 * bones>(calx::transpose(transforms));  // (bones, 12) -> (12, bones)
};

/// The errors of a chunk of N correspondences, one column each (3 x N): each point minus
/// its model point posed by theta. A model point is skinned, the bones' transforms times
/// its column of `weighted` (88 x N: its weights times its rest position, sum_b w_b T_b x).
/// The model's mirror (x scaled by -1 or 1), the global rotation and translation follow.
inline constexpr auto chunk_errors = [](const auto& theta, const auto& weighted, const auto& points,
                                        const auto& relatives, const auto& inverse_absolutes, const auto& links,
                                        const auto& mirror) {
  const auto skinned = calx::matmul(bone_transforms(theta, relatives, inverse_absolutes, links), weighted);
  const auto rotation = angle_axis_rotation(calx::slice<0, 3>(theta)) * mirror;  // mirror: x before the rotation
  return points - (calx::matmul(rotation, skinned) + calx::reshape<3, 1>(calx::slice<3, 6>(theta)));
};

/// The vertices' columns of `weighted`: row 22k + b is weight b times coordinate k of the
/// rest position (`weights`: 22 x N, `rest`: 4 x N).
template <class T, std::size_t N>
constexpr auto weighted_rest(const calx::tensor<T, bones, N>& weights, const calx::tensor<T, 4, N>& rest) {
  return calx::reshape<4 * bones, N>(calx::reshape<4, 1, N>(rest) * calx::reshape<1, bones, N>(weights));
}

/// The simple variant: each point against a vertex (`points`: 3 x N).
inline constexpr auto simple_errors = [](const auto& theta, const auto& weights, const auto& rest, const auto& points,
                                         const auto&... model) {
  return chunk_errors(theta, weighted_rest(weights, rest), points, model...);
};

/// The complicated variant: each point against the point at barycentric coordinates (u0,
/// u1, 1 - u0 - u1) of a triangle's vertices (`weights`, `rest`: the three vertices' rows,
/// corner by corner: 66 x N and 12 x N; `us`: 2 x N). Skinning and the global transform are
/// affine and the coordinates add up to 1, so the interpolated point is skinned as the
/// three would be. `shift` is added to every correspondence's u: each error depends on its
/// own u alone, so the Jacobian in the shift at 0 is each column's in its own u.
inline constexpr auto complicated_errors = [](const auto& theta, const auto& shift, const auto& weights, const auto& rest,
                                              const auto& us, const auto& points, const auto&... model) {
  const auto corner = [&]<int K>(std::integral_constant<int, K>) {
    return weighted_rest(calx::slice<K * bones, (K + 1) * bones>(weights), calx::slice<4 * K, 4 * K + 4>(rest));
  };
  const auto u = us + calx::reshape<2, 1>(shift);
  const auto u0 = calx::slice<0, 1>(u), u1 = calx::slice<1, 2>(u);
  const auto weighted = u0 * corner(std::integral_constant<int, 0>{}) + u1 * corner(std::integral_constant<int, 1>{}) +
                        (1.0 - u0 - u1) * corner(std::integral_constant<int, 2>{});
  return chunk_errors(theta, weighted, points, model...);
};

/// Correspondences a chunk: the errors' program is compiled for this many (a shorter last
/// chunk is padded with columns of zero weight, which are not read back).
inline constexpr std::size_t chunk_size = 256;

/// The hand: theta (and a zero shift of the us) and the model.
struct hand {
  calx::tensor<double, params> theta{};
  calx::tensor<double, 2> no_shift{};
  calx::tensor<double, bones, 16> relatives{}, inverse_absolutes{};
  calx::tensor<double, bones, 2> links{};  // per bone: hangs from the root (or is it), is the root
  calx::tensor<double, 3> mirror{};
};

/// One chunk of correspondences, a column each: its vertices' weights and rest positions
/// (the simple variant's, or the three corners' one after the other), points and us; on
/// the heap (a chunk is 100 KB).
struct chunk {
  template <class T>
  using boxed = std::unique_ptr<T>;
  boxed<calx::tensor<double, bones, chunk_size>> weights_1 = std::make_unique<calx::tensor<double, bones, chunk_size>>();
  boxed<calx::tensor<double, 4, chunk_size>> rest_1 = std::make_unique<calx::tensor<double, 4, chunk_size>>();
  boxed<calx::tensor<double, 3 * bones, chunk_size>> weights_3 = std::make_unique<calx::tensor<double, 3 * bones, chunk_size>>();
  boxed<calx::tensor<double, 12, chunk_size>> rest_3 = std::make_unique<calx::tensor<double, 12, chunk_size>>();
  boxed<calx::tensor<double, 3, chunk_size>> points = std::make_unique<calx::tensor<double, 3, chunk_size>>();
  boxed<calx::tensor<double, 2, chunk_size>> us = std::make_unique<calx::tensor<double, 2, chunk_size>>();
};

/// The Jacobian of a chunk in theta and, in the complicated variant, in each
/// correspondence's u: one TU each for the compile budget (ht_jacobian_simple.cpp,
/// ht_jacobian_complicated.cpp, ht_jacobian_us.cpp).
void simple_jacobian(const hand& h, const chunk& c, calx::tensor<double, 3, chunk_size, params>& d_theta);
void complicated_jacobian(const hand& h, const chunk& c, calx::tensor<double, 3, chunk_size, params>& d_theta);
void complicated_jacobian_us(const hand& h, const chunk& c, calx::tensor<double, 3, chunk_size, 2>& d_u);

}  // namespace calx_gradbench::ht

#endif
