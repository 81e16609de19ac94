// The fix: the rule as a user op with its own vjp, which applies to a tensor elementwise.
#include <calx/calx.hpp>

#include <array>

struct clip_gradient_op {};

template <>
struct calx::op_traits<clip_gradient_op> {
  static constexpr const char* name = "clip_gradient";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return x * 1.0; }
  static constexpr auto vjp(const auto& ct, const auto&, const auto&) {
    return std::array{calx::max(calx::min(ct, 1.0), -1.0)};
  }
};
constexpr calx::op_fn<clip_gradient_op> clip{};

int main() {
  auto g = calx::grad([](const auto& v) { return calx::sum(clip(v * v)); })(calx::tensor<double, 3>{});
  (void)g;
}
