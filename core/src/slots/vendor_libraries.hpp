// The toolkit's vendor libraries - cuBLAS, cuFFT, cuSPARSE, cuSOLVER, cuRAND, NPP, nvJPEG, cuDNN, cuTENSOR - found
// on this machine, which the sandbox of a run with submissions hides: a launcher cannot load one with dlopen past
// the build's DT_NEEDED allow-list (and switch the census off around it, the census running in its own process),
// where the lab's plugin does not need that library itself.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cudalab::host {

/// A vendor library: its family's name and the file names of its files (fnmatch globs).
struct vendor_library {
  std::string family;              ///< "cublas"
  std::vector<std::string> files;  ///< {"libcublas.so*", "libcublasLt.so*"}
};
/// Every family vendor_library_files looks for.
const std::vector<vendor_library>& vendor_libraries();

/// The files (each as it resolves, symbolic links followed, once) of the vendor libraries in `folders`, less
/// every family one of `needed` (DT_NEEDED entries: a plugin's) belongs to.
std::vector<std::string> vendor_library_files(const std::vector<std::filesystem::path>& folders,
                                              const std::vector<std::string>& needed);

/// Where the toolkit keeps its libraries on this machine: lib64 and targets/*/lib under each toolkit root
/// (the parent of toolkit_folders()' bin folders), the folders of LD_LIBRARY_PATH, and the system's
/// multiarch library folder; each that exists, once.
std::vector<std::filesystem::path> library_search_folders();

}  // namespace cudalab::host
