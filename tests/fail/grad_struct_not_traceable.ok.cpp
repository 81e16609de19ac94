// The fix: the struct is a class template over its number type.
#include <calx/calx.hpp>

#include <boost/hana/define_struct.hpp>

template <class T>
struct params {
  BOOST_HANA_DEFINE_STRUCT(params, (T, a), (T, b));
};

int main() {
  constexpr auto f = [](const auto& p) { return p.a * p.b; };
  params<double> g = calx::grad(f)(params<double>{1.0, 2.0});
  return g.a == 2.0 && g.b == 1.0 ? 0 : 1;
}
