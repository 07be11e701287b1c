// A student's submission for a slot: `--submission SLOT=FILE`, built for the run's GPU (a kernel slot's
// source with NVRTC into a CUBIN, a launcher slot's with nvcc into a shared library) under a build
// policy, and loaded where the lab runs it. The built file goes with the run's results.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudalab/device_info.hpp"
#include "cudalab/slot.hpp"
#include "process/child_process.hpp"
#include "process/sandbox.hpp"
#include "slots/kernel_compile.hpp"

namespace cudalab::host {

/// `--submission SLOT=FILE` as given.
struct submission_arg {
  std::string slot;
  std::string file;
};

/// "SLOT=FILE" split; throws std::invalid_argument saying what is wrong (no '=', an empty side).
submission_arg parse_submission_arg(const std::string& text);

/// True for a submission built already: FILE.cubin (a kernel slot's) or FILE.so (a launcher slot's),
/// which is loaded as it is; anything else is source, built first.
bool is_built_submission(const std::string& file);

/// How a submission is built: an assignment's [build] (a plain run's has no flag and no denial).
struct build_policy {
  std::vector<std::string> flags;            ///< more NVRTC options or nvcc flags
  std::vector<std::string> include_dirs;     ///< kernel slots: the only folders #include may search
  std::vector<std::string> deny_headers;     ///< globs of headers the submission may not include
  std::vector<std::string> allow_libraries;  ///< launcher slots: DT_NEEDED globs allowed beyond the runtimes
  double timeout_s = 120;                    ///< each compiler run, NVRTC's or nvcc's
  /// Each compiler in a sandbox (its own folder holding a copy of the submission, the toolkit with the
  /// denied headers hidden: build_sandbox.hpp) when set; `readable` and `bwrap` as the caller wants.
  std::optional<child_sandbox> sandbox;
  std::optional<child_limits> limits;  ///< each compiler under these limits when set
};

/// What building a submission came to.
struct built_submission {
  bool ok = false;
  std::string artifact;                         ///< the CUBIN or shared library written, when ok
  std::vector<compile_diagnostic> diagnostics;  ///< the policy's and the compiler's messages, in order
};

/// The architecture NVRTC and nvcc build for on `device`: "sm_90".
std::string arch_of(const device_info& device);

/// The name of a built submission for `slot`: "<slot>.cubin" (kernel) or "<slot>.so" (launcher).
std::string built_file_name(const slot_spec& slot);

/// Builds the submission `source` for `slot` for `arch` into `folder` (created if needed) as
/// built_file_name(slot), and checks that it defines the slot's entry. Never throws for the
/// submission's faults (they are diagnostics); throws std::runtime_error when the toolkit is missing
/// or the folder cannot be written.
built_submission build_submission(const slot_spec& slot, const std::string& source, const std::string& arch,
                                  const build_policy& policy, const std::filesystem::path& folder);

/// The loaded submissions of a run, by lab and slot, for the runner.
class submission_codes {
 public:
  /// Makes the code of a built submission: loads it here (load_slot_code), or starts the process it runs in.
  using loader = std::function<std::unique_ptr<slot_code>(const slot_spec& slot, const std::string& artifact)>;
  /// Loads `artifact` for `slot` of lab `lab` with `load` (default: load_slot_code, into this process); a
  /// failure is kept as why().
  void load(const std::string& lab, const slot_spec& slot, const std::string& artifact, const loader& load = {});
  /// The submission for `slot` of `lab`, or nullptr.
  const slot_code* find(const std::string& lab, const std::string& slot) const;
  /// Why the submission for `slot` of `lab` is not loaded ("" when it is, or was never given).
  std::string why(const std::string& lab, const std::string& slot) const;

 private:
  std::map<std::pair<std::string, std::string>, std::unique_ptr<slot_code>> codes_;
  std::map<std::pair<std::string, std::string>, std::string> failures_;
};

}  // namespace cudalab::host
