// Sanity pair: the compile-fail machinery itself. This file must fail to compile with
// exactly this message, and sanity.ok.cpp must compile; if either goes wrong, the other
// fail.* results cannot be trusted.
// EXPECT: calx fail-test sanity check
// ERRORS: 1
#include <calx/calx.hpp>

template <class T>
constexpr bool always_false = false;

static_assert(always_false<int>, "calx fail-test sanity check");

int main() {}
