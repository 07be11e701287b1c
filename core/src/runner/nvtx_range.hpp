// The NVTX range around each verified run of a variant, named after the result it gives: Nsight
// Compute counts only the kernels launched inside such a range (`run --profile`), and its CSV names
// the range each kernel ran in. The name is written and read here, in one place.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cudalab::host {

/// Which result a range stands for.
struct range_key {
  std::string lab_file;  ///< as given on the command line (variant_result::lab_file)
  std::uint64_t point = 0;
  std::string variant;
  bool operator<(const range_key& o) const;
  bool operator==(const range_key& o) const;
};

/// The range's name: "cudalab#" then the lab file, the point index and the variant, '#' between them,
/// each byte of the texts but letters, digits, '_' and '-' written %XX ("cudalab#labs%2Fa%2Etoml#3#copy"),
/// so that the name holds nothing a CSV, an NVTX filter or ncu's "domain:range:..." text treats specially.
std::string range_name(const range_key& key);

/// The key of the first range name in `text` (a name alone, or ncu's NVTX column, which quotes each
/// range of the stack with its domain and payload); nullopt when it holds none.
std::optional<range_key> find_range_name(std::string_view text);

/// ncu's --nvtx-include argument that selects the kernels inside any such range (a push/pop range of
/// the default domain whose name starts "cudalab#").
inline constexpr const char* range_filter = "regex:cudalab#.*/";

/// Pushes an NVTX range named `name` on this thread for its lifetime ("" pushes none). Without a tool
/// attached (ncu, nsys) NVTX calls do nothing.
class nvtx_range {
 public:
  explicit nvtx_range(const std::string& name);
  ~nvtx_range();
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;

 private:
  bool pushed_ = false;
};

}  // namespace cudalab::host
