// A library whose static initialiser crashes (SIGSEGV) the moment it is loaded, before any cudalab
// check can run: `cudalab list` must report it and go on (red-team F12).
#include <csignal>

namespace {
struct crash_on_load {
  crash_on_load() { std::raise(SIGSEGV); }
} crash;
}  // namespace
