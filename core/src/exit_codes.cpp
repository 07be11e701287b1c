// What each exit code means, said once (exit_codes.hpp).
#include "exit_codes.hpp"

namespace cudalab::host {

const std::vector<exit_code_meaning>& exit_code_meanings() {
  static const std::vector<exit_code_meaning> table = {
      {exit_ok, "ok"},
      {exit_internal, "internal error"},
      {exit_usage, "usage"},
      {exit_bad_lab_file, "bad lab file"},
      {exit_plugin, "plugin load failure"},
      {exit_no_gpu, "no usable GPU"},
      {exit_verify_failed, "verification failed"},
      {exit_cuda_error, "CUDA error"},
      {exit_lab_error, "lab error"},
      {exit_write_error, "a results file could not be written"},
      {exit_submission, "a submission does not build"},
      {exit_regression, "compare: a result got slower beyond the threshold and the noise"},
      {exit_interrupted, "interrupted"},
      {exit_bad_results, "compare, export, plot and report: results that cannot be read"},
  };
  return table;
}

const char* meaning_of_exit_code(int code) {
  for (const exit_code_meaning& m : exit_code_meanings())
    if (m.code == code) return m.meaning;
  return "";
}

}  // namespace cudalab::host
