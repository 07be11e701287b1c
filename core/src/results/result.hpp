// Results: what one measured variant at one sweep point produced.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cudalab/access_stats.hpp"
#include "cudalab/lab.hpp"
#include "results/census.hpp"
#include "results/measured.hpp"

namespace cudalab::host {

/// Why a result's timed repetitions ended (device/stopping_rule.hpp).
enum class stop_reason {
  precise,          ///< the median's 95% interval came within [measure] precision_pct of it
  max_time,         ///< [measure] max_time_ms of GPU time was spent
  max_repetitions,  ///< [measure] max_repetitions (or repetitions, if larger) were run
};

/// "precise", "max_time", "max_repetitions": the names results.json and the CSV use.
inline const char* stop_reason_name(stop_reason r) {
  switch (r) {
    case stop_reason::precise:
      return "precise";
    case stop_reason::max_time:
      return "max_time";
    case stop_reason::max_repetitions:
      return "max_repetitions";
  }
  return "?";
}

/// The stop_reason of that name; nullopt for any other text.
inline std::optional<stop_reason> parse_stop_reason(const std::string& name) {
  for (stop_reason r : {stop_reason::precise, stop_reason::max_time, stop_reason::max_repetitions})
    if (name == stop_reason_name(r)) return r;
  return std::nullopt;
}

/// Timing of one variant at one point. Times are per launch, in milliseconds.
struct timing {
  bool timed = false;
  std::uint64_t samples = 0;  ///< timed samples (each one event pair around `batch` launches)
  std::uint64_t batch = 1;    ///< launches per sample
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0;
  double cv = 0;  ///< coefficient of variation of the samples (stddev / mean)
  bool l2_flushed = false;
  /// Each repetition's mean time per launch, in the order they ran: what median_ms ... cv summarize, kept
  /// for later statistics (`cudalab compare`). Empty when not timed, and in results written before it.
  std::vector<double> repetition_ms;
  /// Why the repetitions ended; absent when not timed, and in results written before the stopping rule.
  std::optional<stop_reason> stopped_by;
  /// The 95% interval of the median when the timing ended (median_interval.hpp), ms per launch; both 0 where
  /// there were too few repetitions for one (fewer than 6), and in results written before it.
  double interval_lo_ms = 0, interval_hi_ms = 0;
  /// The kernel was shorter than the host's launch interval: launches were queued behind a blocking kernel or
  /// launched as a graph, so that median_ms is the GPU's time, not the host's launch rate (host_inclusive_ms is
  /// the latter).
  bool launch_bound = false;
  /// Time per launch with launches paced by the host (no blocking kernel, no graph), ms: measured for launch-bound
  /// results only, 0 otherwise.
  double host_inclusive_ms = 0;
  /// With l2_flush: how many samples (warm-up included) found persisting-L2 state set when they started -
  /// a set-aside or an access policy window on the timed stream, left by the code timed - and reset it
  /// first (device/cold_cache.hpp); 0 otherwise.
  std::uint64_t persisting_l2_found = 0;
  /// What the first of them found, in words; "" when none did.
  std::string persisting_l2_note;
  /// A launcher run in the submission's own process: the calibrated time of the handshake that orders its
  /// work with the harness's (device/timing.hpp time_launches), ms: the median of samples of the handshake alone,
  /// made before the first timed sample as those are, and taken off each; 0 otherwise.
  double handshake_ms = 0;
  /// Held samples whose blocking kernel ran out (sample_timer.hpp hold_timeout_ms) before their launches were
  /// queued behind it: each was taken again with half the batch, a batch of one held once more, and once a
  /// batch of one did not fit twice in a row, every sample after it was paced by the host. 0 when none did, and
  /// in results written before it.
  std::uint64_t hold_timeouts = 0;
  /// The timed samples were queued behind the blocking kernel to the end (launch-bound, or a launcher in the
  /// submission's process); false when they were paced by the host, by design or after hold_timeouts.
  bool held = false;
  /// Each timed sample was one launch of its batch captured as a CUDA graph (device/launch_graph.hpp): a kernel
  /// shorter than device/timing.hpp's graph_below_ms, so the GPU's cost of a stream launch, which moves from one
  /// process to the next, is not in its time. false otherwise, and in results written before it.
  bool graph = false;
  /// Such a kernel whose launches could not be captured (a synchronising call, the legacy stream, ...): why, in
  /// the runtime's words; it was then timed on the stream as any other. "" otherwise.
  std::string graph_refused;

  /// Whether an interval was recorded.
  bool has_interval() const { return interval_hi_ms > 0; }
};

/// The outcome of a variant at a point.
enum class result_status { ok, verify_failed, error, skipped };

/// "ok", "verify_failed", "error", "skipped": the names results.json, the CSV and the reports use.
inline const char* status_name(result_status s) {
  switch (s) {
    case result_status::ok:
      return "ok";
    case result_status::verify_failed:
      return "verify_failed";
    case result_status::error:
      return "error";
    case result_status::skipped:
      return "skipped";
  }
  return "?";
}

/// Why a result is not ok, as data: what decides anything (a grade, an integrity flag, an exit code)
/// reads this, never the words of `error` or of the verification's note, which are for people.
enum class result_failure {
  none,                   ///< ok
  wrong_output,           ///< verify() found the output wrong
  input_changed,          ///< the run changed a registered input (the output may be right or wrong)
  wrong_after_timing,     ///< right on the first verified run, wrong on the verified run after the timed ones
  timed_out,              ///< an isolated run's watchdog killed the child running it
  crashed,                ///< the child running it died (a signal) or ended without reporting it
  cuda_error,             ///< a CUDA call failed (the lab's, the submission's or the host's)
  lab_error,              ///< the lab's code threw or broke its contract (not through a CUDA call)
  submission_not_loaded,  ///< a student variant whose submission could not be loaded
  nothing_to_measure,     ///< skipped: the variant moves no bytes at this point
  not_run,                ///< skipped: the run (or the child running it) ended before it
};

/// The failures' names, as results.json writes them ("wrong_output", ...; "" for none).
const char* failure_name(result_failure f);

/// One row of the results: a variant of a lab file at one sweep point.
struct variant_result {
  std::string lab_file;  ///< as given on the command line
  std::string plugin;
  std::string title;
  std::uint64_t point_index = 0;
  std::vector<std::pair<std::string, std::string>> point;  ///< swept "name", "value", axis order
  std::string variant;
  std::string variant_summary;
  bool is_baseline = false;
  int device = -1;  ///< the CUDA ordinal it ran on when the run named --devices, else -1
  result_status status = result_status::ok;
  result_failure failure = result_failure::none;  ///< why it is not ok, as data (status ok: none)
  std::string error;                              ///< for status error / skipped: why, for people
  cudalab::verification verification;
  traffic bytes;
  timing time;
  double gbps = 0;             ///< bytes.total() / median time, 10^9 bytes/s; 0 when not timed
  double pct_of_baseline = 0;  ///< gbps / the baseline variant's gbps at the same point (0: none)
  double pct_of_ceiling = 0;   ///< gbps / the measured ceiling of bytes.path
  double pct_of_peak = 0;      ///< gbps / theoretical DRAM peak (device path only)
  bool has_model = false;
  access_stats model;  ///< predicted traffic (when the lab traced the variant)
  bool has_measured = false;
  measured_counters measured;  ///< what Nsight Compute counted (`run --profile`, when ncu could count)
  kernel_census census;        ///< what its verified run put on the GPU ([measure] census; not taken otherwise)
};

}  // namespace cudalab::host
