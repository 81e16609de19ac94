// A checkpointed function that captures: the backward pass traces it again, from its type
// alone.
// EXPECT: calx::checkpoint: the function captures state
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const double scale = 2.0;
  const auto f = calx::checkpoint([scale](auto y) { return calx::sin(y) * scale; });
  (void)f;
}
