// The one Catch2 main shared by every test executable (an object library in
// tests/CMakeLists.txt), compiled once. Catch2 2.13, as Debian ships it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
