/// @file detail/runtime_error.hpp
/// @brief How calx reports a bad value found at run time (a batch length, a loop bound):
/// std::invalid_argument with the offending values in its text, or, where exceptions are
/// disabled, the text on stderr and abort.
#ifndef CALX_DETAIL_RUNTIME_ERROR_HPP
#define CALX_DETAIL_RUNTIME_ERROR_HPP

#include <calx/detail/internal_header_check.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Throws std::invalid_argument (or prints and aborts where exceptions are disabled).
[[noreturn]] inline void invalid_argument(const std::string& what) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw std::invalid_argument(what);
#else
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
#endif
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_RUNTIME_ERROR_HPP
