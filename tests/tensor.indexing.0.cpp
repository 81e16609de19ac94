/// @file tests/tensor.indexing.0.cpp
/// @brief Indexing by runtime values (tests/_include/indexing_cases.hpp), part 1 of 2:
/// the index rules on numbers and traced, gradients against central differences, the adjoint identity, float programs.

#include <_include/indexing_cases.hpp>

#include <catch2/catch.hpp>

using namespace indexing_test;

TEST_CASE("take, segment_sum and dynamic_slice on numbers follow JAX's index rules", "[tensor][indexing]") {
  const X x = filled<X>(1);
  for (const I4& idx : idx_cases) {
    const tensor<double, 4, 3> t = gathered(x, idx);
    const tensor<double, 4, 4> c = gathered_cols(tensor<double, 4, 4>(filled<tensor<double, 4, 4>>(2)), idx);
    const tensor<double, 4, 4> xc = filled<tensor<double, 4, 4>>(2);
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 3; ++i) CHECK(double(t(k, i)) == double(x(jax_clamp(idx[k], 4), i)));
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4; ++k) CHECK(double(c(r, k)) == double(xc(r, jax_clamp(idx[k], 4))));
  }
  for (int i : {-5, -4, -1, 0, 2, 3, 4, 40}) {
    const tensor<double, 3> row = one_row(x, i);
    for (int e = 0; e < 3; ++e) CHECK(double(row(e)) == double(x(jax_clamp(i, 4), e)));
  }
  for (const I4& ids : id_cases) {
    const tensor<double, 3, 3> s = segments(x, ids);
    tensor<double, 3, 3> want;
    for (int k = 0; k < 4; ++k)
      if (ids[k] >= 0 && ids[k] < 3)  // out of range: dropped
        for (int i = 0; i < 3; ++i) want[ids[k] * 3 + i] += x[k * 3 + i];
    CHECK(max_abs_diff(s, want) == 0.0);
  }
  for (int s : start_cases) {
    const tensor<double, 2, 3> w = window(x, s);
    const tensor<double, 4, 2> wc = window_cols(x, s);
    const int b = std::min(std::max(s < 0 ? s + 4 : s, 0), 2), bc = std::min(std::max(s < 0 ? s + 3 : s, 0), 1);
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < 3; ++i) CHECK(double(w(k, i)) == double(x(b + k, i)));
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 2; ++k) CHECK(double(wc(r, k)) == double(x(r, bc + k)));
  }
  // Index tensors of other integer types, and of several axes: the result takes their shape.
  const tensor<long, 2, 2> idx2 = make(tensor<long, 2, 2>{}, 3, 0, -1, 1);
  const tensor<double, 2, 2, 3> t2 = calx::take(x, idx2);
  for (int e = 0; e < 4; ++e)
    for (int i = 0; i < 3; ++i) CHECK(t2[e * 3 + i] == x[jax_clamp(idx2[e], 4) * 3 + i]);
}

TEST_CASE("traced index ops compute what they compute on numbers", "[tensor][indexing]") {
  const X x = filled<X>(3);
  for (const I4& idx : idx_cases) {
    CHECK(max_abs_diff(calx::trace(gathered, x, idx)(x, idx), gathered(x, idx)) == 0.0);
    CHECK(max_abs_diff(calx::trace(gathered_cols, x, idx)(x, idx), gathered_cols(x, idx)) == 0.0);
  }
  const auto row = calx::trace(one_row, x, 0);
  for (int i : {-5, -1, 0, 3, 7}) CHECK(max_abs_diff(row(x, i), one_row(x, i)) == 0.0);
  for (const I4& ids : id_cases) CHECK(max_abs_diff(calx::trace(segments, x, ids)(x, ids), segments(x, ids)) == 0.0);
  const auto w = calx::trace(window, x, 0);
  const auto wc = calx::trace(window_cols, x, 0);
  for (int s : start_cases) {
    CHECK(max_abs_diff(w(x, s), window(x, s)) == 0.0);
    CHECK(max_abs_diff(wc(x, s), window_cols(x, s)) == 0.0);
  }
  // Indices that are constants of the trace (plain integers beside a traced tensor).
  const auto fixed = calx::trace([](const auto& v) { return calx::take(v, make(I4{}, 1, -1, 9, 0)) * calx::dynamic_slice<1>(v, 2); }, x);
  CHECK(max_abs_diff(fixed(x), gathered(x, make(I4{}, 1, -1, 9, 0)) * calx::dynamic_slice<1>(x, 2)) == 0.0);
  const std::string text = calx::to_string(calx::trace(mixed, x, idx_cases[0], id_cases[0], 1));
  CHECK(text.find("gather[axis=0, clamp]") != std::string::npos);
  CHECK(text.find("scatter_add[axis=0, drop]") != std::string::npos);
  CHECK(text.find("dynamic_slice[axis=1, size=2]") != std::string::npos);
}

TEST_CASE("gradients through index ops match central differences", "[tensor][indexing][grad]") {
  for (std::size_t c = 0; c < 3; ++c) {
    const X x = filled<X>(10 + static_cast<unsigned>(c));
    const I4 idx = idx_cases[c], ids = id_cases[c];
    for (int s : {-1, 0, 1, 5}) {
      const auto f = [&](const X& v) { return mixed(v, idx, ids, s); };
      INFO("case " << c << ", start " << s);
      check_against_differences(f, x, calx::grad(mixed)(x, idx, ids, s));
      // value_and_grad agrees, and reverse mode equals forward mode.
      const auto [value, g] = calx::value_and_grad(mixed)(x, idx, ids, s);
      CHECK(value == Approx(double(f(x))).epsilon(1e-14));
      const auto jf = calx::jacfwd(mixed)(x, idx, ids, s);
      CHECK(max_abs_diff(jf, g) <= 1e-12 * (1.0 + magnitude(g)));
    }
  }
}

TEST_CASE("vjp of an index op is the adjoint of its jvp", "[tensor][indexing][vjp]") {
  const X x = filled<X>(20), t = filled<X>(21);
  const auto check = [&](const auto& f) {
    const auto [y, dy] = calx::jvp(f, std::tuple{x}, std::tuple{t});
    using Y = std::remove_cvref_t<decltype(y)>;
    const Y ct = filled<Y>(22);
    const auto [y2, pull] = calx::vjp(f, x);
    const X back = std::get<0>(pull(ct));
    double lhs = 0, rhs = 0;
    for (std::size_t k = 0; k < Y::size; ++k) lhs += ct[k] * dy[k];
    for (std::size_t k = 0; k < X::size; ++k) rhs += back[k] * t[k];
    CHECK(lhs == Approx(rhs).epsilon(1e-13));
    CHECK(max_abs_diff(y2, f(x)) == 0.0);
  };
  // The indices are constants of each function (jvp and vjp take stateless functions).
  [&]<int... C>(std::integer_sequence<int, C...>) {
    (check([](const auto& v) { return calx::take(v, idx_case(C)); }), ...);
    (check([](const auto& v) { return calx::take(v, idx_case(C), calx::axis<1>); }), ...);
    (check([](const auto& v) { return calx::segment_sum<3>(v, id_case(C)); }), ...);
  }(std::make_integer_sequence<int, 3>{});
  [&]<int... S>(std::integer_sequence<int, S...>) {
    (check([](const auto& v) { return calx::dynamic_slice<2>(v, S - 5); }), ...);
    (check([](const auto& v) { return calx::dynamic_slice<2>(v, S - 5, calx::axis<1>) * 3.0; }), ...);
  }(std::make_integer_sequence<int, 12>{});
}

TEST_CASE("float programs through index ops agree with double ones", "[tensor][indexing]") {
  using XF = tensor<float, 4, 3>;
  const X x = filled<X>(50);
  XF xf;
  for (std::size_t k = 0; k < X::size; ++k) xf[k] = static_cast<float>(x[k]);
  for (std::size_t c = 0; c < 3; ++c) {
    const X g = calx::grad(mixed)(x, idx_cases[c], id_cases[c], -1);
    const XF gf = calx::grad(mixed)(xf, idx_cases[c], id_cases[c], -1);
    for (std::size_t k = 0; k < X::size; ++k) CHECK(double(gf[k]) == Approx(g[k]).epsilon(1e-4).margin(1e-5));
  }
}
