// Included first by every header under calx/detail/: internal headers are not an API.
#ifndef CALX_PUBLIC_HEADER_INCLUDED
#error "calx/detail/ headers are internal: include <calx/calx.hpp> (or another public <calx/...> header) instead"
#endif
