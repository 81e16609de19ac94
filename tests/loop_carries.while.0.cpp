/// @file tests/loop_carries.while.0.cpp
/// @brief `while_loop` with a carry that mixes tensors, numbers and nested structures: jacfwd,
/// vmap of jacfwd, and the issue's own program; tests/loop_carries.while.1.cpp has the second
/// order (a TU of its own for the compile budget: together 48.6 CPU s in CI's build). See
/// tests/_include/loop_carries.hpp for the carry, the references and the tolerances (issue
/// 31). One loop kind per translation unit: each instantiates every transform of its loop,
/// and the three together exceed a test TU's memory budget.

#include <_include/loop_carries.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <utility>

namespace {

using namespace loop_carries;

TEST_CASE("loop carries: the issue's program, jacfwd through while_loop with a tensor beside a number",
          "[while_loop][tensor][jacfwd]") {
  constexpr auto f = [](const auto& x, auto s) {  // carry (c, w); w rides along unused
    return calx::while_loop([](auto cw) { return calx::sum(cw.first * cw.first) > 0.01; },
                            [](auto cw) {
                              auto [c, w] = cw;
                              return std::pair{c * 0.3, w};
                            },
                            std::pair{x, s * 2.0})
        .first;
  };
  const vec3 js = calx::jacfwd(f, calx::argnums<1>)(point(), 0.7);  // 3 steps: c = 0.027 x
  const auto jx = calx::jacfwd(f, calx::argnums<0>)(point(), 0.7);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(js[i] == 0.0);
    for (std::size_t j = 0; j < 3; ++j) check_near("d/dx", jx(i, j), i == j ? 0.027 : 0.0, 4e-16);
  }
}

TEST_CASE("loop carries: while_loop, tensors beside numbers in nested structures", "[while_loop][tensor]") {
  check_jacobians<false>(through_while);
  check_vmap(through_while);
}

}  // namespace
