// The progress line of a run: "[12/40] 0:42 elapsed, about 1:10 left · transpose rows=4096 padded" on
// stderr, redrawn after each result and cleared before anything else is printed, so it never
// garbles the result table on the same terminal. In-process and isolated runs alike.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "results/reporter.hpp"

namespace cudalab::host {

/// The line for `done` of `total` results after `elapsed_s` seconds, the last being `what`. The time
/// left is the mean time per result so far times the results to go (none before the first result).
std::string progress_text(std::uint64_t done, std::uint64_t total, double elapsed_s, const std::string& what);

/// A reporter that passes every call on to `inner` and keeps the progress line on `line` (nullptr:
/// off) below it: the line is cleared before each result reaches `inner` (which may print a table row
/// on the same terminal) and redrawn after it; end() clears it for good.
class progress_reporter final : public reporter {
 public:
  progress_reporter(reporter& inner, std::FILE* line, std::uint64_t total);

  void begin(const run_context& context) override;
  void add(const variant_result& result) override;
  void end(const run_context& context) override;

  /// A result that arrived and reaches add() later (a run over several GPUs reports in plan order):
  /// the line counts it now. Once this was called, add() no longer counts.
  void arrived(const variant_result& result);

  /// Prints `text` as a line of its own on the progress stream (a child's output) without garbling
  /// the progress line; printed to stderr when the line is off.
  void note(const std::string& text);

 private:
  void clear();
  void draw();

  reporter& inner_;
  std::FILE* line_;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
  std::string last_;
  bool drawn_ = false;
  bool counts_arrivals_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace cudalab::host
