/// @file tests/tensor.edges.cpp
/// @brief Edges of tensors found by probing against JAX 0.10 (issue 24): logsumexp, softmax and
/// log_softmax with a finite max of magnitude 1e308 or more; the layout of jacfwd, jacrev and
/// hessian with several argnums and a tensor output (JAX's: one array per input leaf, output
/// axes then input axes); calx::cond on a rank-0 tensor<bool> predicate; a pullback of a
/// rank-0-tensor output given a number; calls on an 8 MiB tensor that keep at most one
/// result's worth on the stack; and compound assignment (`t += b`) on tensors.

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <pthread.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <tuple>
#include <type_traits>

namespace {

using calx::tensor;

TEST_CASE("logsumexp, softmax and log_softmax with a finite max past 1e308", "[tensor][reduce]") {
  // JAX 0.10: logsumexp([1.5e308, 0]) = 1.5e308, grad (1, 0); logsumexp([-1.5e308, -1.6e308]) =
  // -1.5e308, grad (1, 0); softmax([1.5e308, 1]) = (1, 0). The max is taken out exactly, so
  // these are exact.
  tensor<double, 2> big, low, pair;
  big[0] = 1.5e308, big[1] = 0.0;
  low[0] = -1.5e308, low[1] = -1.6e308;
  pair[0] = 1.5e308, pair[1] = 1.0;
  constexpr auto lse = [](const auto& x) { return calx::logsumexp(x); };
  CHECK(static_cast<double>(lse(big)) == 1.5e308);
  CHECK(static_cast<double>(calx::trace(lse, big)(big)) == 1.5e308);
  CHECK(static_cast<double>(calx::trace(lse, low)(low)) == -1.5e308);
  const auto gb = calx::grad(lse)(big), gl = calx::grad(lse)(low);
  CHECK(gb[0] == 1.0);
  CHECK(gb[1] == 0.0);
  CHECK(gl[0] == 1.0);
  CHECK(gl[1] == 0.0);
  const auto s = calx::trace([](const auto& x) { return calx::softmax(x); }, pair)(pair);
  CHECK(s[0] == 1.0);
  CHECK(s[1] == 0.0);
  const auto ls = calx::trace([](const auto& x) { return calx::log_softmax(x); }, pair)(pair);
  CHECK(ls[0] == 0.0);
  CHECK(ls[1] == 1.0 - 1.5e308);
  // Float: the largest finite float is finite too.
  tensor<float, 2> bf;
  bf[0] = 3e38f, bf[1] = 0.0f;
  CHECK(static_cast<float>(calx::trace(lse, bf)(bf)) == 3e38f);
  // Not finite: an infinite max takes 0 out (inf stays inf), a NaN gives NaN, as JAX.
  tensor<double, 2> inf;
  inf[0] = std::numeric_limits<double>::infinity(), inf[1] = 0.0;
  CHECK(static_cast<double>(calx::trace(lse, inf)(inf)) == std::numeric_limits<double>::infinity());
  tensor<double, 2> nan;
  nan[0] = std::numeric_limits<double>::quiet_NaN(), nan[1] = 0.0;
  CHECK(std::isnan(static_cast<double>(calx::trace(lse, nan)(nan))));
}

/// fv(a, b) = a * sum(b) + b * a(0) * a(1): every entry of both Jacobians is set, none equal.
constexpr auto fv = [](const auto& a, const auto& b) { return a * calx::sum(b * b) + b * a(0) * a(1); };

template <class J>
void check_jacobians(const J& j, const tensor<double, 3>& a, const tensor<double, 3>& b) {
  const auto& [ja, jb] = j;
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(ja)>, tensor<double, 3, 3>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(jb)>, tensor<double, 3, 3>>);
  double sb = 0;
  for (std::size_t k = 0; k < 3; ++k) sb += b[k] * b[k];
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      INFO("entry (" << i << ", " << k << ")");
      // d fv_i / d a_k = [i == k] sum(b^2) + b_i (d(a0 a1)/d a_k)
      const double da = (i == k ? sb : 0.0) + b[i] * (k == 0 ? a[1] : k == 1 ? a[0] : 0.0);
      // d fv_i / d b_k = 2 a_i b_k + [i == k] a0 a1
      const double db = 2 * a[i] * b[k] + (i == k ? a[0] * a[1] : 0.0);
      CHECK(ja(i, k) == Approx(da).epsilon(1e-14));
      CHECK(jb(i, k) == Approx(db).epsilon(1e-14));
    }
}

TEST_CASE("jacfwd, jacrev, hessian with several argnums and a tensor output: JAX's layout", "[tensor][jacfwd][jacrev]") {
  tensor<double, 3> a, b;
  for (std::size_t k = 0; k < 3; ++k) {
    a[k] = 0.5 + 0.75 * static_cast<double>(k);
    b[k] = -0.3 * static_cast<double>(k) + 0.2;
  }
  check_jacobians(calx::jacfwd(fv, calx::argnums<0, 1>)(a, b), a, b);
  check_jacobians(calx::jacrev(fv, calx::argnums<0, 1>)(a, b), a, b);
  // A rank-0 output: one tensor of the input's shape per argument, not an array of one.
  constexpr auto dot = [](const auto& x, const auto& y) { return calx::sum(x * y * x); };
  const auto [dx, dy] = calx::jacfwd(dot, calx::argnums<0, 1>)(a, b);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dx)>, tensor<double, 3>>);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(dx[k] == Approx(2 * a[k] * b[k]).epsilon(1e-15));
    CHECK(dy[k] == Approx(a[k] * a[k]).epsilon(1e-15));
  }
  // The hessian: ((H_aa, H_ab), (H_ba, H_bb)), each 3 x 3.
  const auto h = calx::hessian(dot, calx::argnums<0, 1>)(a, b);
  const auto& [haa, hab] = std::get<0>(h);
  const auto& [hba, hbb] = std::get<1>(h);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(hab)>, tensor<double, 3, 3>>);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      CHECK(haa(i, k) == Approx(i == k ? 2 * b[i] : 0.0).margin(1e-15));
      CHECK(hab(i, k) == Approx(i == k ? 2 * a[i] : 0.0).margin(1e-15));
      CHECK(hba(i, k) == Approx(i == k ? 2 * a[i] : 0.0).margin(1e-15));
      CHECK(hbb(i, k) == 0.0);
    }
  // A struct output keeps its structure outside: a pair of (d/da, d/db) tuples.
  constexpr auto both = [](const auto& x, const auto& y) { return std::pair{x * y, calx::sum(x)}; };
  const auto jp = calx::jacfwd(both, calx::argnums<0, 1>)(a, b);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(std::get<1>(jp.first))>, tensor<double, 3, 3>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(std::get<0>(jp.second))>, tensor<double, 3>>);
  CHECK(std::get<1>(jp.first)(2, 2) == a[2]);
  CHECK(std::get<0>(jp.second)[1] == 1.0);
}

TEST_CASE("cond on a rank-0 tensor<bool> predicate, as lax.cond on a 0-d array", "[tensor][cond]") {
  constexpr auto f = [](const auto& t, auto s) {
    return calx::cond(
        calx::sum(t) > 0.0, [](const auto& u, auto w) { return calx::sum(u * u) * w; },
        [](const auto& u, auto w) { return calx::sum(u) * w * w; }, t, s);
  };
  tensor<double, 3> pos, neg;
  for (std::size_t k = 0; k < 3; ++k) {
    pos[k] = 0.5 + static_cast<double>(k);
    neg[k] = -pos[k];
  }
  const double s = 1.5;
  CHECK(static_cast<double>(calx::trace(f, pos, s)(pos, s)) == Approx((0.25 + 2.25 + 6.25) * s));
  CHECK(static_cast<double>(calx::trace(f, neg, s)(neg, s)) == Approx(-4.5 * s * s));
  CHECK(static_cast<double>(f(pos, s)) == Approx((0.25 + 2.25 + 6.25) * s));  // on numbers
  const auto gp = calx::grad(f)(pos, s), gn = calx::grad(f)(neg, s);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(gp[k] == Approx(2 * pos[k] * s));
    CHECK(gn[k] == Approx(s * s));
  }
  CHECK(static_cast<double>(calx::grad(f, calx::argnums<1>)(neg, s)) == Approx(-4.5 * 2 * s));
  // Tensors alone as operands: traced or not only the value tells.
  constexpr auto g = [](const auto& t) {
    return calx::cond(calx::sum(t) > 0.0, [](const auto& u) { return u * 2.0; }, [](const auto& u) { return u * -1.0; }, t);
  };
  CHECK(calx::trace(g, pos)(pos)[1] == 3.0);
  CHECK(calx::trace(g, neg)(neg)[1] == 1.5);
  CHECK(g(neg)[1] == 1.5);
}

TEST_CASE("a pullback of a rank-0 tensor output takes a number", "[tensor][vjp]") {
  tensor<double, 3> x;
  for (std::size_t k = 0; k < 3; ++k) x[k] = 1.0 + static_cast<double>(k);
  const auto [y, pb] = calx::vjp([](const auto& t) { return calx::sum(t * t); }, x);
  CHECK(static_cast<double>(y) == 14.0);
  const auto [g] = pb(2.0);
  const auto [gt] = pb(tensor<double>(2.0));
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(g[k] == 4.0 * x[k]);
    CHECK(gt[k] == g[k]);
  }
}

// ---- the stack: an 8 MiB tensor, a 10 MiB stack ----------------------------------------------

using big = tensor<double, 1024, 1024>;
constexpr auto twice_plus_sin = [](const auto& x) { return x * 2.0 + calx::sin(x); };
constexpr auto sum_of_squares = [](const auto& x) { return calx::sum(x * x); };

// Each call in a function of its own: a frame holds the temporaries of its own statements.
[[gnu::noinline]] void scaled(const big& w, big& out) { out = w * 2.0; }
[[gnu::noinline]] void traced(const big& w, big& out) { out = calx::trace(twice_plus_sin, w)(w); }
[[gnu::noinline]] void gradient(const big& w, big& out) { out = calx::grad(sum_of_squares)(w); }
[[gnu::noinline]] void value_and_gradient(const big& w, big& out) {
  out = calx::value_and_grad(sum_of_squares)(w).second;
}
[[gnu::noinline]] void pulled_back(const big& w, big& out) {
  const auto [y, pb] = calx::vjp(sum_of_squares, w);
  out = std::get<0>(pb(1.0));
}

struct stack_job {
  void (*call)(const big&, big&);
  const big* in;
  big* out;
};
void* run_job(void* p) {
  const auto* job = static_cast<stack_job*>(p);
  job->call(*job->in, *job->out);
  return nullptr;
}

/// Runs `call` on a thread whose stack is 10 MiB: one 8 MiB result and change. (Two results'
/// worth, as before issue 24, overflow it.)
void on_small_stack(void (*call)(const big&, big&), const big& in, big& out) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{10} << 20);
  stack_job job{call, &in, &out};
  pthread_t thread;
  REQUIRE(pthread_create(&thread, &attr, run_job, &job) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

TEST_CASE("calls on an 8 MiB tensor keep one result's worth on the stack", "[tensor][stack]") {
  auto w = std::make_unique<big>();
  auto out = std::make_unique<big>();
  for (std::size_t k = 0; k < big::size; ++k) (*w)[k] = 1e-3 * static_cast<double>(k % 97);
  const std::size_t probe = 4321;
  const double x = (*w)[probe];
  on_small_stack(scaled, *w, *out);
  CHECK((*out)[probe] == 2 * x);
  on_small_stack(traced, *w, *out);
  CHECK((*out)[probe] == Approx(2 * x + std::sin(x)).epsilon(1e-15));
  on_small_stack(gradient, *w, *out);
  CHECK((*out)[probe] == 2 * x);
  on_small_stack(value_and_gradient, *w, *out);
  CHECK((*out)[probe] == 2 * x);
  on_small_stack(pulled_back, *w, *out);
  CHECK((*out)[probe] == 2 * x);
}

TEST_CASE("compound assignment on tensors: t op= b is t = t op b, b broadcast to t's shape", "[tensor][arithmetic]") {
  // f(x, y) = sum(t * t), t = ((x + y) * 2 - sum(y)) / 4; df/dx = t, df/dy = t - sum(t) / 2 * ones.
  constexpr auto f = [](const auto& x, const auto& y) {
    auto t = x;
    t += y;             // a tensor of the same shape
    t *= 2.0;           // a number
    t -= calx::sum(y);  // a rank-0 tensor (traced: a traced scalar)
    t /= 4.0;
    return calx::sum(t * t);
  };
  tensor<double, 3> x, y, t;
  for (std::size_t i = 0; i < 3; ++i) x[i] = 1.0 + static_cast<double>(i), y[i] = 0.5 * static_cast<double>(i) - 0.25;
  double sum_y = 0, sum_t = 0, want = 0;
  for (std::size_t i = 0; i < 3; ++i) sum_y += y[i];
  for (std::size_t i = 0; i < 3; ++i) {
    t[i] = ((x[i] + y[i]) * 2.0 - sum_y) / 4.0;
    sum_t += t[i];
    want += t[i] * t[i];
  }
  CHECK(double(f(x, y)) == Approx(want).epsilon(1e-15));  // on numbers
  const auto [gx, gy] = calx::grad(f, calx::argnums<0, 1>)(x, y);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(gx[i] == Approx(t[i]).epsilon(1e-14));
    CHECK(gy[i] == Approx(t[i] - sum_t / 2.0).epsilon(1e-14).margin(1e-15));
  }
  // b broadcast up to t's shape: a row added to each row of a matrix.
  tensor<double, 2, 3> m;
  m += x;
  m *= y;
  for (std::size_t r = 0; r < 2; ++r)
    for (std::size_t c = 0; c < 3; ++c) CHECK(m[r * 3 + c] == x[c] * y[c]);
  STATIC_REQUIRE(std::is_same_v<decltype(m += x), tensor<double, 2, 3>&>);
}

TEST_CASE("an element written through t(i, j) reads the number written", "[tensor][element]") {
  tensor<double, 2, 3> m;
  for (std::size_t k = 0; k < 6; ++k) m[k] = static_cast<double>(k);
  const double a = (m(1, 2) = 7.5);  // the assignment's value is the new number, not the old 5
  CHECK(a == 7.5);
  CHECK(m[5] == 7.5);
  auto e = m(0, 1);
  e += 2.0;  // 1 + 2
  CHECK(double(e) == 3.0);
  CHECK(m[1] == 3.0);
  e *= 4.0;  // reads the number just written: 3 * 4, not 1 * 4
  CHECK(m[1] == 12.0);
  CHECK(double(calx::tensor<double>(e)) == 12.0);  // the rank-0 tensor it is holds it too
  m[1] = -1.0;  // a write past the proxy: reading it as a number sees it
  CHECK(double(e) == -1.0);
  m(0, 0) = m(1, 2);  // proxy to proxy: the number, not the proxy
  CHECK(m[0] == 7.5);
  m(1, 2) = 0.0;
  CHECK(m[0] == 7.5);
}

}  // namespace
