// The progress line of a long run: "[12/40] transpose rows=4096 padded" on stderr, on terminals only.
#pragma once

#include <cstdint>
#include <string>

namespace cudalab::host {

/// Counts steps and, when on, redraws one line on stderr per step; clears it when destroyed.
class progress_line {
 public:
  progress_line(bool on, std::uint64_t total) : on_(on), total_(total) {}
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  ~progress_line();

  /// The next step has begun: it is `what`.
  void show(const std::string& what);

 private:
  bool on_;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
};

}  // namespace cudalab::host
