/// @file bench/gradbench/ba_objective.cpp
/// @brief ba's residuals (ba.hpp), and the module's entry.
#include "ba.hpp"

#include <span>

namespace calx_gradbench {
namespace ba {

namespace {
struct objective_state : state {
  std::vector<double> reproj_err_x, reproj_err_y;
  std::vector<double> w_err;
};
}  // namespace

std::unique_ptr<evaluation> prepare_objective(const json& input) {
  objective_state s{read(input), {}, {}};
  s.reproj_err_x.resize(s.p);
  s.reproj_err_y.resize(s.p);
  s.w_err.resize(s.p);
  return make_evaluation(
      std::move(s),
      [](objective_state& s) {
        each_chunk(s, [&](std::size_t begin, std::size_t count) {
          calx::vmap(reprojection_error)
              .into(std::pair{std::span(s.reproj_err_x).subspan(begin, count), std::span(s.reproj_err_y).subspan(begin, count)})(
                  std::span(s.chunk_cams).first(count), std::span(s.chunk_X).first(count),
                  std::span(s.w).subspan(begin, count), std::span(s.feats).subspan(begin, count));
        });
        calx::vmap(weight_error).into(std::span(s.w_err))(s.w);
      },
      [](const objective_state& s) {
        // GradBench's form (cpp/gradbench/evals/ba.hpp): the first residuals and how many.
        return json{{"reproj_error", {{"elements", {s.reproj_err_x[0], s.reproj_err_y[0]}}, {"repeated", s.p}}},
                    {"w_err", {{"element", s.w_err[0]}, {"repeated", s.p}}}};
      });
}

}  // namespace ba

void add_ba(registry& r) {
  r["ba"]["objective"] = ba::prepare_objective;
  r["ba"]["jacobian"] = ba::prepare_jacobian;
}

}  // namespace calx_gradbench
