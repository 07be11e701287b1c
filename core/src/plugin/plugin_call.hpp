// Calling plugin code: every exception a lab throws becomes a lab_call_error that says which lab,
// which function, which variant and which point ("histogram: trace(global_atomics, n=64Mi): ...").
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "cudalab/cuda_error.hpp"

namespace cudalab::host {

/// Where a plugin was called: names for the message.
struct plugin_call {
  std::string lab;       ///< the spec's name
  std::string function;  ///< "setup", "run", "verify", "trace", "traffic_of", "check_params", ...
  std::string variant;   ///< "" when the call is not about one variant
  std::string point;     ///< the point's parameters ("n=33 offset=1"), "" for the defaults or none

  /// "lab: function(variant, point)".
  std::string text() const {
    std::string args = variant;
    if (!point.empty()) args += (args.empty() ? "" : ", ") + point;
    return lab + ": " + function + "(" + args + ")";
  }
};

/// An exception from plugin code, with the call it came from in front of its message. A CUDA
/// failure keeps its code, so the run can tell a sticky error (the context is lost) from others.
class lab_call_error : public std::runtime_error {
 public:
  lab_call_error(const plugin_call& call, const std::string& what, cudaError_t cuda = cudaSuccess, bool sticky = false)
      : std::runtime_error(call.text() + ": " + what), cuda_(cuda), sticky_(sticky) {}
  /// cudaSuccess when the lab failed for another reason than a CUDA call.
  cudaError_t cuda_code() const noexcept { return cuda_; }
  bool is_cuda() const noexcept { return cuda_ != cudaSuccess; }
  bool sticky() const noexcept { return sticky_; }

 private:
  cudaError_t cuda_;
  bool sticky_;
};

/// Runs `f` (a call into plugin code) and turns whatever it throws into a lab_call_error for `call`.
template <class F>
decltype(auto) call_plugin(const plugin_call& call, F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const lab_call_error&) {
    throw;
  } catch (const cuda_error& e) {
    throw lab_call_error(call, e.what(), e.code(), e.sticky());
  } catch (const std::exception& e) {
    throw lab_call_error(call, e.what());
  } catch (...) {
    throw lab_call_error(call, "an exception that is not a std::exception");
  }
}

}  // namespace cudalab::host
