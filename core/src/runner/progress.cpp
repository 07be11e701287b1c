// The progress line of a long run: "[12/40] transpose rows=4096 padded" on stderr, on terminals only.
#include "runner/progress.hpp"

#include <cstdio>

namespace cudalab::host {

void progress_line::show(const std::string& what) {
  ++done_;
  if (on_)
    std::fprintf(stderr, "\r\033[K[%llu/%llu] %s", (unsigned long long)done_, (unsigned long long)total_, what.c_str());
}

progress_line::~progress_line() {
  if (on_ && done_ > 0) std::fprintf(stderr, "\r\033[K");
}

}  // namespace cudalab::host
