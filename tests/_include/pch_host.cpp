// The translation unit that builds the unit tests' precompiled header (tests/CMakeLists.txt,
// calx_test_pch); every test reuses it. It has no code of its own.
