// A Hana struct of fixed doubles as a batch element of vmap: it cannot hold the traced values calx
// passes the function, so calx asks for a class template over the number type.
// EXPECT: calx: this struct argument cannot hold traced values: its members are fixed float or double types
// ERRORS: 1
#include <calx/calx.hpp>

#include <boost/hana/define_struct.hpp>

#include <vector>

struct params {
  BOOST_HANA_DEFINE_STRUCT(params, (double, a), (double, b));
};

int main() {
  constexpr auto f = [](const auto& p) { return p.a * p.b; };
  auto g = calx::vmap(f)(std::vector<params>{params{1.0, 2.0}});
  (void)g;
}
