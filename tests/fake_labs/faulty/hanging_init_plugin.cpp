// A library whose static initialiser never returns once loaded, before any cudalab check can run:
// `cudalab list` must give up on it and go on (red-team F12).
#include <unistd.h>

namespace {
struct hang_on_load {
  hang_on_load() {
    for (;;) ::pause();
  }
} hang;
}  // namespace
