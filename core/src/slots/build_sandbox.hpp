// Where a submission is built: the toolkit's folders, and the sandbox a build runs in
// (process/sandbox.hpp) - one folder of its own holding a copy of the submission, the system's and the
// toolkit's files read-only (all of them: an allowed header may use a denied one, and the header policy
// judges what the compiler opened, header_policy.hpp), nothing of the grader's.
#pragma once

#include <string>
#include <vector>

#include "process/sandbox.hpp"

namespace cudalab::host {

/// The CUDA toolkit's root folder ("/usr/local/cuda-13.0"): the one whose lib folder holds the NVRTC
/// library this process loaded, else $CUDA_HOME, else /usr/local/cuda; "" when none has an include folder.
std::string toolkit_root();

/// The folders of the toolkit's headers: <root>/include and, where it is, <root>/include/cccl (CUB,
/// Thrust, libcu++). Empty when toolkit_root() is "".
std::vector<std::string> toolkit_include_dirs();

/// A compiler's work folder: made new and empty (a sandbox's own, make_sandbox_folder, when `sandboxed`),
/// and removed however the build ends. Throws std::runtime_error when it cannot be made.
class build_folder {
 public:
  build_folder(std::string path, bool sandboxed);
  ~build_folder();
  build_folder(const build_folder&) = delete;
  build_folder& operator=(const build_folder&) = delete;

 private:
  std::string path_;
};

/// The sandbox of a build that works in `work` (made with make_sandbox_folder): `base` (its bwrap, what
/// else it may read) with `work` its private folder, the toolkit and this executable readable.
child_sandbox build_sandbox(const child_sandbox& base, const std::string& work);

}  // namespace cudalab::host
