/// @file ceres.hpp
/// @brief `calx::ceres_cost_function<Functor, kNumResiduals, kParameterBlockSizes...>`: a
/// drop-in for `ceres::AutoDiffCostFunction` whose residuals and Jacobians are calx's
/// generated code instead of dual numbers. Optional: needs Ceres Solver (Debian's
/// libceres-dev); docs/ceres.md.
///
/// The functor is the one written for Ceres, `template <class T> constexpr bool
/// operator()(const T* x0, ..., T* residual) const`, stateless. calx calls it once, at
/// compile time, with `T` = `calx::ceres_scalar`, a traced number that takes the math Ceres
/// functors call unqualified (`sin(x)`, `sqrt(x)`, `T(2)`, found by argument-dependent lookup
/// as Jets' are) or through calx (`calx::sin(x)` does not compile for a Jet, so a functor
/// shared with AutoDiffCostFunction calls math unqualified).
#ifndef CALX_CERES_HPP
#define CALX_CERES_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/interop/scalar.hpp>
#include <calx/jacfwd.hpp>
#include <calx/jacrev.hpp>
#include <calx/math.hpp>
#include <calx/tracer.hpp>

#include <ceres/sized_cost_function.h>
#include <ceres/types.h>

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

/// The number type calx passes a Ceres functor (calx/interop/scalar.hpp).
using ceres_scalar = interop::scalar;

namespace detail {

/// The functor's residuals as a function calx traces: parameter blocks as `std::array`s of
/// tracers in, the residuals out twice (the value rides along the Jacobian as its aux, so
/// that one program gives both).
template <class Functor, int R>
struct ceres_residuals {
  static constexpr void report_false(bool now) {
    if (now)
      trace_error("calx::ceres_cost_function: the functor returned false while calx traced it; calx traces "
                  "one program for every input, so its result cannot depend on the parameters' values");
  }
  template <class... X>
  constexpr auto operator()(const X&... x) const {
    graph* g = nullptr;
    auto scalars = [&]<std::size_t B>(const std::array<tracer, B>& block) {
      std::array<ceres_scalar, B> s{};
      for (std::size_t k = 0; k < B; ++k) {
        s[k] = ceres_scalar(block[k]);
        if (block[k].graph != nullptr) g = block[k].graph;
      }
      return s;
    };
    const std::tuple<std::array<ceres_scalar, std::tuple_size_v<X>>...> in{scalars(x)...};
    std::array<ceres_scalar, static_cast<std::size_t>(R)> r{};
    const bool ok = std::apply(
        [&](const auto&... block) { return static_cast<bool>(Functor{}(block.data()..., r.data())); }, in);
    if (!ok) g->refuse(&report_false);
    std::array<tracer, static_cast<std::size_t>(R)> out{};
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = r[k].traced() ? r[k].value : in_graph(*g, g->constant(r[k].constant));
    return std::pair{out, out};
  }
};

/// Row `row` of Jacobian block `I` as calx lays it out (each residual: the blocks' rows, a
/// tuple of them for several blocks).
template <std::size_t I, std::size_t Blocks, class Row>
constexpr const auto& ceres_block_row(const Row& row) {
  if constexpr (Blocks == 1)
    return row;
  else
    return std::get<I>(row);
}

}  // namespace detail

/// `ceres::AutoDiffCostFunction<Functor, kNumResiduals, kParameterBlockSizes...>` with calx
/// computing the residuals and the Jacobians: the same functor, the same Ceres interface.
/// Each Jacobian block is written row-major, as Ceres asks; blocks whose pointer is null
/// (parameters held constant) are not written. The Jacobian is calx's jacrev where there
/// are fewer residuals than parameters, jacfwd otherwise.
template <class Functor, int kNumResiduals, int... kParameterBlockSizes>
class ceres_cost_function final : public ceres::SizedCostFunction<kNumResiduals, kParameterBlockSizes...> {
  static_assert(kNumResiduals != ceres::DYNAMIC,
                "calx::ceres_cost_function: the number of residuals must be fixed (ceres::DYNAMIC is not "
                "supported: calx compiles the residuals for fixed sizes)");
  static_assert(std::is_empty_v<Functor> && std::is_default_constructible_v<Functor>,
                "calx::ceres_cost_function: the functor must be stateless (no data members: calx traces it "
                "at compile time); pass data as a parameter block held constant "
                "(ceres::Problem::SetParameterBlockConstant)");

  static constexpr std::size_t blocks = sizeof...(kParameterBlockSizes);
  static constexpr bool reverse = kNumResiduals < (0 + ... + kParameterBlockSizes);
  using residuals_fn = detail::ceres_residuals<Functor, kNumResiduals>;

 public:
  ceres_cost_function() = default;
  /// As AutoDiffCostFunction's: takes the functor (by default owning it).
  explicit ceres_cost_function(Functor* functor, ceres::Ownership ownership = ceres::TAKE_OWNERSHIP)
      : functor_(ownership == ceres::TAKE_OWNERSHIP ? functor : nullptr) {}

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    return evaluate(parameters, residuals, jacobians, std::make_index_sequence<blocks>{});
  }

  const Functor& functor() const { return functor_ ? *functor_ : stateless_; }

 private:
  template <std::size_t... I>
  static bool evaluate(double const* const* parameters, double* residuals, double** jacobians,
                       std::index_sequence<I...>) {
    bool any_jacobian = false;
    if (jacobians != nullptr) any_jacobian = ((jacobians[I] != nullptr) || ...);
    // The residuals alone: the functor itself on the numbers, as AutoDiffCostFunction runs
    // it (the best code there is for them; its `false` is then Ceres' to see).
    if (!any_jacobian) return static_cast<bool>(Functor{}(parameters[I]..., residuals));
    return evaluate_jacobian<I...>(parameters, residuals, jacobians);
  }

  template <std::size_t... I>
  static bool evaluate_jacobian(double const* const* parameters, double* residuals, double** jacobians) {
    constexpr int sizes[] = {kParameterBlockSizes...};
    const std::tuple<std::array<double, static_cast<std::size_t>(kParameterBlockSizes)>...> x{
        load<static_cast<std::size_t>(sizes[I])>(parameters[I])...};
    const auto jr = [&] {
      if constexpr (reverse)
        return calx::jacrev(residuals_fn{}, calx::argnums<static_cast<int>(I)...>, calx::has_aux)(std::get<I>(x)...);
      else
        return calx::jacfwd(residuals_fn{}, calx::argnums<static_cast<int>(I)...>, calx::has_aux)(std::get<I>(x)...);
    }();
    if constexpr (detail::holds_invalid_program<std::remove_cvref_t<decltype(jr)>>::value) {
      return false;
    } else {
      write_jacobian<I...>(jr, residuals, jacobians);
      return true;
    }
  }

  template <std::size_t... I, class JR>
  static void write_jacobian(const JR& jr, double* residuals, double** jacobians) {
    constexpr int sizes[] = {kParameterBlockSizes...};
    const auto& J = jr.first;
    for (std::size_t k = 0; k < jr.second.size(); ++k) residuals[k] = jr.second[k];
    auto write = [&]<std::size_t Block>(std::integral_constant<std::size_t, Block>) {
      double* out = jacobians[Block];
      if (out == nullptr) return;
      constexpr std::size_t n = static_cast<std::size_t>(sizes[Block]);
      for (std::size_t row = 0; row < J.size(); ++row) {
        const auto& block_row = detail::ceres_block_row<Block, blocks>(J[row]);
        for (std::size_t c = 0; c < n; ++c) out[row * n + c] = block_row[c];
      }
    };
    (write(std::integral_constant<std::size_t, I>{}), ...);
  }

  template <std::size_t B>
  static std::array<double, B> load(const double* p) {
    std::array<double, B> a;
    for (std::size_t k = 0; k < B; ++k) a[k] = p[k];
    return a;
  }

  std::unique_ptr<Functor> functor_;
  static constexpr Functor stateless_{};
};

CALX_END_NAMESPACE

#endif  // CALX_CERES_HPP
