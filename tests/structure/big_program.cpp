// A program of about 450 nodes, compiled with calx::calx's usage requirements only: the
// constexpr budget calx::calx raises is enough, and clang's default -fbracket-depth (256)
// is not reached because codegen cuts its folds into blocks (detail/static_for.hpp).
#include <calx/calx.hpp>

#include <cmath>
#include <cstdio>

namespace {
constexpr int rounds = 150;

constexpr auto f = [](auto x, auto y) {
  auto z = x;
  for (int i = 0; i < rounds; ++i) z = calx::sin(z) * y + x;  // three nodes a round
  return z;
};
}  // namespace

int main() {
  auto p = calx::trace(f, 1.0, 1.0);
  static_assert(decltype(p)::ir.size > 3 * rounds);
  double got = p(0.5, 0.75);
  double want = f(0.5, 0.75);  // the same function on plain doubles
  bool ok = std::abs(got - want) <= 1e-12 * (1.0 + std::abs(want));
  std::printf("big_program: %zu nodes, %s\n", decltype(p)::ir.size, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
