// The fix: the struct is a class template over its number type.
#include <calx/calx.hpp>

#include <boost/hana/define_struct.hpp>

#include <vector>

template <class T>
struct params {
  BOOST_HANA_DEFINE_STRUCT(params, (T, a), (T, b));
};

int main() {
  constexpr auto f = [](const auto& p) { return p.a * p.b; };
  auto g = calx::vmap(f)(std::vector<params<double>>{params<double>{1.0, 2.0}});
  return g[0] == 2.0 ? 0 : 1;
}
