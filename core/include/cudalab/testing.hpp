// Testing a lab plugin the way cudalab runs it: load its file with every check the host makes,
// predict its accesses on the CPU, and verify every variant on the GPU at sizes that find bugs.
// Link the CMake target cudalab::testing (cudalab_add_lab_gtests does, for GoogleTest programs).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cudalab/abi.hpp"
#include "cudalab/access_stats.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/trace_tiles.hpp"

namespace cudalab::testing {

/// The exit code CTest reads as "skipped": a GPU test program's main() (cudalab::gpu_test_main) returns
/// it where no GPU is usable, and cudalab_add_lab_gtests sets SKIP_RETURN_CODE 77.
inline constexpr int exit_skipped = 77;

/// Whether this process can use a GPU; when not, `why` gets the cause (no driver, no device, the
/// stub library) as `cudalab run` says it.
CUDALAB_API bool gpu_available(std::string* why = nullptr);

/// One variant's verified run at one point.
struct outcome {
  std::string variant;
  std::string point;    ///< the parameters that differ from the defaults, "n=33 offset=1"
  bool passed = false;  ///< verified, and the registered inputs are unchanged
  verification result;  ///< when verify() ran
  std::string error;    ///< otherwise: the error in cudalab's words ("lab: run(copy, n=33): ...")
};

/// A plugin loaded as cudalab loads it: the ABI and spec checks included.
class CUDALAB_API lab_under_test {
 public:
  /// Loads `plugin`: a plugin name looked up in `search_path`, then $CUDALAB_PLUGIN_PATH, or a path
  /// to a cudalab_<name>.so. Throws std::runtime_error with cudalab's message when it cannot.
  explicit lab_under_test(const std::string& plugin, const std::vector<std::string>& search_path = {});
  ~lab_under_test();
  lab_under_test(const lab_under_test&) = delete;
  lab_under_test& operator=(const lab_under_test&) = delete;

  const lab_spec& spec() const;

  /// The plugin's own lab object, for what the calls below do not ask it: a point set up and run by
  /// hand, with a session of the test's own (a run without the host's preparation of the outputs).
  const lab& instance() const;

  /// The default parameters with `overrides` applied and checked as a lab file's would be
  /// (declared name, type, range, allowed values, the lab's check_params). Throws
  /// std::invalid_argument saying what is wrong.
  params with(const std::map<std::string, param_value>& overrides = {}) const;

  /// The variant's index in spec().variants. Throws std::out_of_range listing the variants.
  variant_index variant(const std::string& name) const;

  /// What the lab's traffic_of() gives for `variant` at `p` (CPU only).
  traffic traffic_of(const std::string& variant, const params& p) const;

  /// What the lab's requirements_of() gives at `p` (CPU only).
  requirements requirements_of(const params& p) const;

  /// What the access model predicts for `variant` at `p` on the model device (CPU only).
  access_stats predict(const std::string& variant, const params& p) const;

  /// For each variant (all, or those named in `only`): one verified run as cudalab makes it (outputs
  /// prepared, one run, verify, inputs checked). Setup happens once for all of them.
  /// REQUIRES: gpu_available().
  std::vector<outcome> verify(const params& p, const std::vector<std::string>& only = {},
                              std::uint64_t seed = 2026) const;

  /// verify() at the defaults with `overrides`, as failures() words it: "" when every variant (or
  /// every one in `only`) passed. The usual line of a lab's GPU test:
  /// `EXPECT_EQ(lab.failures_at({{"n", std::int64_t(33)}}), "");`
  std::string failures_at(const std::map<std::string, param_value>& overrides,
                          const std::vector<std::string>& only = {}) const;

  /// Like verify(p), on a point set up at `from` and then retuned to `p` (lab_point::retune), as a
  /// sweep over tuning parameters runs it. Throws std::invalid_argument when `from` and `p` differ in
  /// a parameter that is not a tuning one. REQUIRES: gpu_available().
  std::vector<outcome> verify_retuned(const params& from, const params& p, const std::vector<std::string>& only = {},
                                      std::uint64_t seed = 2026) const;

  /// verify_retuned() from the defaults with `from` to the defaults with `to`, as failures() words it.
  std::string failures_retuned(const std::map<std::string, param_value>& from,
                               const std::map<std::string, param_value>& to,
                               const std::vector<std::string>& only = {}) const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Sizes worth verifying a size-like parameter at, within [lo, hi]: the smallest, a few odd ones
/// around a warp and a block (31, 33, 255, 257, ...), a prime over a million, and the largest
/// that is at most `at_most`.
CUDALAB_API std::vector<std::int64_t> awkward_sizes(std::int64_t lo, std::int64_t hi, std::int64_t at_most = 1 << 22);

/// One line per outcome that did not pass, with its first mismatches or its error; "" when all did.
CUDALAB_API std::string failures(const std::vector<outcome>& outcomes);

/// What the access model predicts for the accesses `trace` records into the sink it is given (CPU
/// only): a lab's own tracing code, or a trace helper, checked without loading a plugin.
CUDALAB_API access_stats predict_trace(const std::function<void(trace_sink&)>& trace);

/// The exact check of a trace through trace_tiles(): what the access model predicts when
/// `trace_block(sink, block)` traces every block of `grid` once, unweighted, with no classes. It
/// equals the class-weighted trace whenever the blocks of each class record alike; a test compares
/// the two at odd sizes. CPU only, and as slow as the grid is large.
CUDALAB_API access_stats predict_every_block(const tile_grid& grid,
                                             const std::function<void(trace_sink&, const tile_block&)>& trace_block);

/// The totals of `got` that differ from `expected`, one per line as "global_load.sectors: 120 expected,
/// 124 got"; "" when every total is equal. The usual line of an exactness test:
/// `EXPECT_EQ(cudalab::testing::difference(predict_every_block(grid, block), lab.predict("tile", p)), "");`
CUDALAB_API std::string difference(const access_stats& expected, const access_stats& got);

}  // namespace cudalab::testing
