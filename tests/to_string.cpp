/// @file tests/to_string.cpp
/// @brief `calx::to_string(program)`: golden text in the style of `jax.make_jaxpr`.
/// Inputs are named a, b, ... in argument order, then one name per node in program order
/// (z is followed by ba); constants are printed inline in shortest round-trip form, with
/// ".0" added to integral values; each value is typed f32, f64 or bool.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <limits>
#include <string>
#include <utility>

namespace {

constexpr auto small = [](auto x, auto y) { return calx::sin(x) * y + 2.0; };

template <class T>
concept printable = requires(const T& t) { calx::to_string(t); };

}  // namespace

TEST_CASE("a small function, in double and in float", "[to_string]") {
  CHECK(calx::to_string(calx::trace(small, 1.0, 2.0)) ==
        "{ lambda a:f64 b:f64 . let\n"
        "    c:f64 = sin a\n"
        "    d:f64 = mul b c\n"
        "    e:f64 = add d 2.0\n"
        "  in (e) }");
  CHECK(calx::to_string(calx::trace(small, 1.0f, 2.0f)) ==
        "{ lambda a:f32 b:f32 . let\n"
        "    c:f32 = sin a\n"
        "    d:f32 = mul b c\n"
        "    e:f32 = add d 2.0\n"
        "  in (e) }");
}

TEST_CASE("masks are typed bool; several outputs are listed in order", "[to_string]") {
  constexpr auto f = [](auto x, auto y) {
    return std::pair{calx::where(x < y, x * 0.5, -1.5), calx::exp(y) / x};
  };
  CHECK(calx::to_string(calx::trace(f, 1.0, 2.0)) ==
        "{ lambda a:f64 b:f64 . let\n"
        "    c:bool = lt a b\n"
        "    d:f64 = mul a 0.5\n"
        "    e:f64 = where c d -1.5\n"
        "    f:f64 = exp b\n"
        "    g:f64 = div f a\n"
        "  in (e, g) }");
}

TEST_CASE("outputs that are inputs or constants are printed by name or value", "[to_string]") {
  constexpr auto swap = [](const auto& v) { return std::array{v[1], v[0]}; };
  CHECK(calx::to_string(calx::trace(swap, std::array<double, 2>{})) ==
        "{ lambda a:f64 b:f64 . let\n"
        "  in (b, a) }");
  constexpr auto constant = [](auto x) { return std::pair{calx::where(false, x, 3.0), x}; };
  CHECK(calx::to_string(calx::trace(constant, 1.0f)) ==
        "{ lambda a:f32 . let\n"
        "  in (3.0, a) }");
}

TEST_CASE("constants print in shortest round-trip form", "[to_string]") {
  constexpr auto f = [](auto x) {
    return x * 0.1 + x * 1e-7 + x * 1e300 + x * -0.0 + x * std::numeric_limits<double>::infinity();
  };
  CHECK(calx::to_string(calx::trace(f, 1.0)) ==
        "{ lambda a:f64 . let\n"
        "    b:f64 = mul a 0.1\n"
        "    c:f64 = mul a 1e-07\n"
        "    d:f64 = add b c\n"
        "    e:f64 = mul a 1e+300\n"
        "    f:f64 = add d e\n"
        "    g:f64 = mul a -0.0\n"
        "    h:f64 = add f g\n"
        "    i:f64 = mul a inf\n"
        "    j:f64 = add h i\n"
        "  in (j) }");
}

TEST_CASE("names continue after z with ba, bb, ...", "[to_string]") {
  constexpr auto f = [](auto x) {
    for (int i = 0; i < 26; ++i) x = calx::sin(x);
    return x;
  };
  const std::string text = calx::to_string(calx::trace(f, 1.0));
  CHECK(text.find("    z:f64 = sin y\n    ba:f64 = sin z\n") != std::string::npos);
  CHECK(text.ends_with("  in (ba) }"));
}

TEST_CASE("to_string takes programs only", "[to_string][rejection]") {
  STATIC_REQUIRE(printable<decltype(calx::trace(small, 1.0, 2.0))>);
  STATIC_REQUIRE(!printable<double>);
  STATIC_REQUIRE(!printable<calx::tracer>);
  STATIC_REQUIRE(!printable<decltype(small)>);
}
