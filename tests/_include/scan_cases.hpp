/// @file tests/_include/scan_cases.hpp
/// @brief The cases of tests/scan.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and CALX_TEST_REALS and includes this):
/// calx::scan (issue 10) under every transform, f32 and f64: a driven, damped
/// oscillator whose forcing is the scanned input and whose per-step output (the squared
/// position) is stacked into a tensor and summed. Against the same loop unrolled while
/// tracing (the forcing a std::array, the outputs added as they come), against finite
/// differences (`check_grads`, orders 1 and 2), under vmap, with structured inputs and
/// outputs, and on plain numbers; the IR does not depend on the number of steps.
///
/// Tolerances: scan and unrolled programs are the same ops; they differ by fma contraction,
/// by the order of the final sum (a tensor reduction against a chain of additions) and of
/// the cotangents' additions. Derivatives add terms that cancel, so errors are bounded
/// relative to |want| + 1: 32 epsilons, 128 for the SIMD loop (whose order of additions in
/// the reduction differs again). Finite differences: central, h = eps^(1/3) (first order),
/// eps^(1/4) (second), relative 1e-6 (f64) / 2e-2 (f32).
#ifndef CALX_TESTS_SCAN_CASES_HPP
#define CALX_TESTS_SCAN_CASES_HPP

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using calx_test::text;

constexpr std::size_t steps = 8;

/// One step of the oscillator: carry (x, v, damping), input the forcing; output x^2.
constexpr auto step = [](auto s, auto force) {
  const auto x = s[0] + 0.1 * s[1];
  const auto v = s[1] - 0.1 * (calx::sin(s[0]) + s[2] * s[1]) + 0.1 * force;
  return std::pair{std::array{x, v, s[2]}, x * x};
};

constexpr auto scanned = [](auto x0, auto damping, const auto& force) {
  const auto [end, squares] = calx::scan(step, std::array{x0, 0.5 * x0, damping}, force);
  return calx::sum(squares) + end[1] * end[0];
};
constexpr auto unrolled = [](auto x0, auto damping, const auto& force) {
  auto s = std::array{x0, 0.5 * x0, damping};
  auto total = 0.0 * x0;
  for (std::size_t i = 0; i < steps; ++i) {
    const auto r = step(s, force[i]);
    s = r.first;
    total = total + r.second;
  }
  return total + s[1] * s[0];
};

template <class T>
calx::tensor<T, steps> forcing() {
  calx::tensor<T, steps> f;
  for (std::size_t i = 0; i < steps; ++i) f[i] = T(0.3) * std::sin(T(0.7) * T(i));
  return f;
}
template <class T>
std::array<T, steps> as_array(const calx::tensor<T, steps>& f) {
  std::array<T, steps> a{};
  for (std::size_t i = 0; i < steps; ++i) a[i] = f[i];
  return a;
}

/// A number, from itself or from a rank-0 tensor (what `calx::sum` of a tensor gives).
template <class X>
auto scalar_of(const X& x) {
  if constexpr (std::is_arithmetic_v<X>)
    return x;
  else
    return x[0];
}

/// Within `k` epsilons of `want`, relative to |want| + 1.
template <class G, class W>
void check_close(const std::string& what, const G& got_in, const W& want_in, int k) {
  const auto got = scalar_of(got_in);
  const auto want = scalar_of(want_in);
  using T = std::remove_cvref_t<decltype(want)>;
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::isfinite(got));
  CHECK(std::abs(got - want) <= T(k) * std::numeric_limits<T>::epsilon() * (T(1) + std::abs(want)));
}

template <class G, class W, class T>
void check_relative(const std::string& what, const G& got_in, const W& want_in, T rel) {
  const T got = scalar_of(got_in);
  const T want = scalar_of(want_in);
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::abs(got - want) <= rel * (T(1) + std::abs(want)));
}

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("scan: one node, the same whatever the number of steps", "[scan]", CALX_TEST_REALS) {
  using T = TestType;
  const std::string printed = calx::to_string(calx::trace(scanned, T(1), T(1), forcing<T>()));
  INFO(printed);
  CHECK(printed.find("= scan[") != std::string::npos);
  CHECK(printed.find("body={ lambda") != std::string::npos);
  CHECK(printed.find("[8] = get[3]") != std::string::npos);  // the stacked outputs, one tensor
  constexpr auto long_scan = [](auto x, const auto& xs) {
    return calx::sum(calx::scan([](auto c, auto v) { return std::pair{c * 0.5 + v, c}; }, x, xs).second);
  };
  std::string many = calx::to_string(calx::trace(long_scan, T(1), calx::tensor<T, 100000>{}));
  const std::string few = calx::to_string(calx::trace(long_scan, T(1), calx::tensor<T, 3>{}));
  for (std::size_t at; (at = many.find("100000")) != std::string::npos;) many.replace(at, 6, "3");
  for (std::size_t at; (at = many.find("1e+05")) != std::string::npos;) many.replace(at, 5, "3.0");
  CHECK(many == few);  // the same program, but for the length
  // Reverse mode: the primal scan keeps its carries and the reverse scan reads them, so the
  // gradient's program holds one forward scan, not two.
  const std::string grad_text = calx::to_string(calx::trace(calx::grad(scanned), T(1), T(1), forcing<T>()));
  INFO(grad_text);
  std::size_t forward = 0;
  for (std::size_t at = 0; (at = grad_text.find("= scan[", at)) != std::string::npos; ++at) ++forward;
  CHECK(forward == 1);
  CHECK(grad_text.find("= scan_vjp[") != std::string::npos);
  CHECK(grad_text.find("[24] = get[") == std::string::npos);  // the kept carries (8 steps x 3): read in place
}
#endif

/// Calls `check(x0, d, f, a)` at three starting points, damping d, the forcing as a tensor f
/// (the scan's) and as an array a (the unrolled loop's).
template <class T, class Check>
void at_starting_points(Check check) {
  const auto f = forcing<T>();
  const auto a = as_array(f);
  for (const T x0 : {T(0.4), T(-0.9), T(1.3)}) {
    INFO("at x0 = " << text(x0));
    check(x0, T(0.2), f, a);
  }
}

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("scan: values and first derivatives equal the unrolled loop's", "[scan]", CALX_TEST_REALS) {
  using T = TestType;
  at_starting_points<T>([](const T x0, const T d, const auto& f, const auto& a) {
    check_close("value", calx::trace(scanned, x0, d, f)(x0, d, f), calx::trace(unrolled, x0, d, a)(x0, d, a), 32);
    const auto g = calx::grad(scanned, calx::argnums<0, 1, 2>)(x0, d, f);
    const auto gu = calx::grad(unrolled, calx::argnums<0, 1, 2>)(x0, d, a);
    check_close("grad x0", std::get<0>(g), std::get<0>(gu), 32);
    check_close("grad damping", std::get<1>(g), std::get<1>(gu), 32);
    for (std::size_t i = 0; i < steps; ++i) check_close("grad force[i]", std::get<2>(g)[i], std::get<2>(gu)[i], 32);
    const auto jv = calx::jvp(scanned, std::tuple{x0, d, f}, std::tuple{T(1), T(-2), forcing<T>()});
    const auto jvu = calx::jvp(unrolled, std::tuple{x0, d, a}, std::tuple{T(1), T(-2), a});
    check_close("jvp", jv.second, jvu.second, 32);
    const auto [value, pullback] = calx::vjp(scanned, x0, d, f);
    calx::tensor<T> three;
    three[0] = T(3);
    const auto ct = pullback(three);
    check_close("vjp value", value, calx::trace(unrolled, x0, d, a)(x0, d, a), 32);
    check_close("vjp damping", std::get<1>(ct), T(3) * std::get<1>(gu), 32);
    check_close("jacfwd x0", calx::jacfwd(scanned)(x0, d, f), std::get<0>(gu), 32);
    check_close("jacrev x0", calx::jacrev(scanned)(x0, d, f), std::get<0>(gu), 32);
  });
}
#endif

// Part 1: the second derivatives of case 2's scan (a TU of its own: with the first order,
// 46-48 CPU s in CI's build of c2962d0).
#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("scan: the hessian equals the unrolled loop's", "[scan]", CALX_TEST_REALS) {
  using T = TestType;
  at_starting_points<T>([](const T x0, const T d, const auto& f, const auto& a) {
    // The output is a rank-0 tensor: the hessian is ((h00, h01), (h10, h11)) of rank-0 tensors, as JAX.
    const auto h = calx::hessian(scanned, calx::argnums<0, 1>)(x0, d, f);
    const auto hu = calx::hessian(unrolled, calx::argnums<0, 1>)(x0, d, a);
    check_close("hessian x0 x0", std::get<0>(std::get<0>(h)), std::get<0>(std::get<0>(hu)), 32);
    check_close("hessian x0 d", std::get<1>(std::get<0>(h)), std::get<1>(std::get<0>(hu)), 32);
    check_close("hessian d d", std::get<1>(std::get<1>(h)), std::get<1>(std::get<1>(hu)), 32);
  });
}
#endif

constexpr auto fx = [](auto x, const auto& force) { return scanned(x, 0.5 * x, force); };

#if CALX_TEST_PART == 2
TEMPLATE_TEST_CASE("scan: check_grads, orders 1 and 2", "[scan]", CALX_TEST_REALS) {
  using T = TestType;
  const T eps = std::numeric_limits<T>::epsilon();
  const T rel = std::is_same_v<T, float> ? T(2e-2) : T(1e-6);
  const T h1 = std::cbrt(eps), h2 = std::sqrt(std::sqrt(eps));
  const auto f = forcing<T>();
  const auto p = calx::trace(fx, T(0), f);
  const auto dp = calx::trace(calx::grad(fx), T(0), f);
  for (const T x : {T(0.4), T(-0.9)}) {
    const T fd1 = (scalar_of(p(x + h1, f)) - scalar_of(p(x - h1, f))) / (2 * h1);
    check_relative("jvp, order 1", calx::jvp(fx, std::tuple{x, f}, std::tuple{T(1), calx::tensor<T, steps>{}}).second,
                   fd1, rel);
    check_relative("vjp, order 1", calx::grad(fx)(x, f), fd1, rel);
    const T fd2 = (scalar_of(dp(x + h2, f)) - scalar_of(dp(x - h2, f))) / (2 * h2);
    check_relative("hessian, order 2", calx::hessian(fx)(x, f), fd2, rel);
    constexpr auto dfx = [](auto x, const auto& force) { return calx::grad(fx)(x, force); };
    check_relative("grad of grad, order 2", calx::grad(dfx)(x, f), fd2, rel);
    constexpr auto tfx = [](auto x, const auto& force) { return calx::jacfwd(fx)(x, force); };
    check_relative("jacfwd of jacfwd, order 2", calx::jacfwd(tfx)(x, f), fd2, rel);
  }
}
#endif

constexpr auto final_product = [](auto x, const auto& g) {
  const auto end = calx::scan(step, std::array{x, 0.5 * x, 0.5 * x}, g).first;
  return end[0] * end[1];
};
constexpr auto final_product_unrolled = [](auto x, const auto& g) {
  auto c = std::array{x, 0.5 * x, 0.5 * x};
  for (std::size_t i = 0; i < steps; ++i) c = step(c, g[i]).first;
  return c[0] * c[1];
};
#if CALX_TEST_PART == 2
TEMPLATE_TEST_CASE("scan: vmap runs the scan across SIMD lanes", "[scan][vmap]", CALX_TEST_REALS) {
  using T = TestType;
  const auto f = forcing<T>();
  const auto a = as_array(f);
  std::vector<T> x0s;
  for (int i = 0; i < 21; ++i) x0s.push_back(T(-1) + T(0.1) * T(i));
  constexpr auto in_axes = calx::in_axes<0, calx::none, calx::none>;
  const auto values = calx::vmap(scanned, in_axes)(x0s, T(0.2), f);
  const auto grads = calx::vmap(calx::grad(scanned), in_axes)(x0s, T(0.2), f);
  for (std::size_t i = 0; i < x0s.size(); ++i) {
    INFO("sample " << i);
    check_close("value", values[i], calx::trace(unrolled, x0s[i], T(0.2), a)(x0s[i], T(0.2), a), 128);
    check_close("grad", grads[i], calx::grad(unrolled)(x0s[i], T(0.2), a), 128);
  }
  // grad of a mean over the batch, with respect to the shared forcing (a per-sample scalar:
  // the final carry's product)
  constexpr auto mean_loss = [](const auto& force, const auto& batch) {
    return calx::mean(calx::vmap(final_product, calx::in_axes<0, calx::none>)(batch, force));
  };
  const auto gm = calx::grad(mean_loss)(f, x0s);
  std::array<T, steps> want{};
  for (const T x : x0s) {
    const auto gu = calx::grad(final_product_unrolled, calx::argnums<1>)(x, a);
    for (std::size_t i = 0; i < steps; ++i) want[i] += gu[i] / T(x0s.size());
  }
  for (std::size_t i = 0; i < steps; ++i) check_close("grad of a mean, force[i]", gm[i], want[i], 128);
}
#endif

#if CALX_TEST_PART == 3
TEMPLATE_TEST_CASE("scan: structured inputs and outputs; plain numbers", "[scan]", CALX_TEST_REALS) {
  using T = TestType;
  // two inputs per step (a pair of tensors), two outputs (a pair, stacked into two tensors)
  constexpr auto two = [](auto x, const auto& a, const auto& b) {
    const auto [c, ys] = calx::scan([](auto s, auto in) { return std::pair{s * in.first + in.second, std::pair{s, s * s}}; },
                                    x, std::pair{a, b});
    return c + calx::sum(ys.first) - calx::sum(ys.second);
  };
  calx::tensor<T, 5> a, b;
  for (std::size_t i = 0; i < 5; ++i) {
    a[i] = T(0.5) + T(0.1) * T(i);
    b[i] = T(0.2) * T(i) - T(0.3);
  }
  T s = T(0.7), sum1 = 0, sum2 = 0, ds = 1, dsum1 = 0, dsum2 = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    sum1 += s;
    sum2 += s * s;
    dsum1 += ds;
    dsum2 += 2 * s * ds;
    s = s * a[i] + b[i];
    ds = ds * a[i];
  }
  check_close("value", calx::trace(two, T(0.7), a, b)(T(0.7), a, b), s + sum1 - sum2, 16);
  check_close("grad", calx::grad(two)(T(0.7), a, b), ds + dsum1 - dsum2, 16);
  // on numbers, scan is a C++ loop, with the same result types
  const auto [c, ys] = calx::scan([](T acc, T v) { return std::pair{acc + v, acc * v}; }, T(1), a);
  T acc = 1;
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(ys[i] == acc * a[i]);
    acc += a[i];
  }
  CHECK(c == acc);
}
#endif

/// A loop in the step: its kernel takes its operands' addresses, so the step's per-step
/// input (an operand of the inner loop) is copied into the step's locals before the step
/// runs, where a step without one reads it where it is used (loop_kernels.hpp).
constexpr auto inner = [](auto, auto a) { return std::array{calx::sin(a[0]) * a[1] + 0.5 * a[0], a[1]}; };
constexpr auto with_inner_loop = [](auto x0, const auto& xs) {
  const auto [end, ys] = calx::scan(
      [](auto c, auto x) { return std::pair{calx::fori_loop(0, 2, inner, std::array{c, x})[0] * 0.9, c * x}; }, x0, xs);
  return end + calx::sum(ys);
};
template <class T>
T with_inner_loop_reference(T c, const calx::tensor<T, 4>& xs) {
  T total = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    total += c * xs[i];
    T d = c;
    for (int j = 0; j < 2; ++j) d = std::sin(d) * xs[i] + T(0.5) * d;
    c = d * T(0.9);
  }
  return c + total;
}

#if CALX_TEST_PART == 3
TEMPLATE_TEST_CASE("scan: a loop in the step, its per-step input an operand of the inner loop", "[scan][vmap]", CALX_TEST_REALS) {
  using T = TestType;
  calx::tensor<T, 4> xs;
  for (std::size_t i = 0; i < 4; ++i) xs[i] = T(0.8) - T(0.3) * T(i);
  std::vector<T> x0s;
  for (int i = 0; i < 19; ++i) x0s.push_back(T(-1) + T(0.1) * T(i));
  const auto values = calx::vmap(with_inner_loop, calx::in_axes<0, calx::none>)(x0s, xs);
  for (std::size_t i = 0; i < x0s.size(); ++i) {
    INFO("sample " << i);
    check_close("value", values[i], with_inner_loop_reference(x0s[i], xs), 64);
  }
  // d/dx0 against a central difference of the reference
  const T x0 = T(0.3), h = std::cbrt(std::numeric_limits<T>::epsilon());
  const T fd = (with_inner_loop_reference(x0 + h, xs) - with_inner_loop_reference(x0 - h, xs)) / (2 * h);
  CHECK(calx::grad(with_inner_loop)(x0, xs) == Approx(fd).epsilon(sizeof(T) == 4 ? 2e-2 : 1e-6));
}
#endif

}  // namespace

#endif  // CALX_TESTS_SCAN_CASES_HPP
