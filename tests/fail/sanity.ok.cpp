// Sanity pair, ok twin: calx's umbrella header compiles with the compile-fail flags.
#include <calx/calx.hpp>

int main() {}
