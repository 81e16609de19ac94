/// @file tests/loop_carries.while.1.cpp
/// @brief `while_loop` with a carry that mixes tensors, numbers and nested structures: the
/// second derivatives (jacfwd of jacfwd) of tests/loop_carries.while.0.cpp's program, a TU of
/// its own for the compile budget. See tests/_include/loop_carries.hpp for the carry, the
/// references and the tolerances (issue 31).

#include <_include/loop_carries.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace {

using namespace loop_carries;

TEST_CASE("loop carries: while_loop, tensors beside numbers in nested structures, second order", "[while_loop][tensor]") {
  check_second<false>(through_while);
}

}  // namespace
