// The life of one sweep point: checked setup, verified runs, teardown (verified_run.hpp).
#include "runner/verified_run.hpp"

#include "cudalab/cuda_error.hpp"
#include "runner/nvtx_range.hpp"

namespace cudalab::host {

live_point::live_point(const lab& l, const params& p, host_session& session, plugin_call call) : session_(session) {
  call.function = "setup";
  try {
    point_ = call_plugin(call, [&] { return l.setup(p, session); });
    if (!point_) throw lab_call_error(call, "returned no point (a null std::unique_ptr<lab_point>)");
    if (session.output_count() == 0)
      throw lab_call_error(call,
                           "registered no output, so a variant that writes nothing could pass verification; "
                           "allocate outputs with session.output<T>(count) or call session.register_output()");
    session.record_inputs();
  } catch (...) {
    point_.reset();
    session_.clear_registrations();
    throw;
  }
}

live_point::~live_point() {
  point_.reset();
  session_.clear_registrations();
}

void live_point::retune(const params& p, plugin_call call) {
  call.function = "retune";
  call_plugin(call, [&] { point_->retune(p); });
}

checked_run live_point::verified_run(variant_index v, plugin_call call, const student_code& student,
                                     const std::string& range, run_watch* watch) {
  session_.prepare_verified_run();
  const cudaStream_t stream = session_.context().stream;
  if (watch) watch->started(stream);
  call.function = student ? "run_slot" : "run";
  {
    // Only the variant's own kernels: the outputs' preparation is before, verify()'s and the inputs'
    // checksum kernels after.
    const nvtx_range counted(range);
    call_plugin(call, [&] { run(v, stream, student); });
    CUDALAB_CUDA_CHECK(cudaGetLastError());  // reads (and clears) a failed launch of this run only
    CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  if (watch) watch->finished(stream);
  call.function = "verify";
  checked_run result;
  result.verdict = call_plugin(call, [&] { return point_->verify(v, session_.context()); });
  const std::vector<std::string> changed = session_.changed_inputs();
  if (!changed.empty()) {
    result.input_changed = true;
    result.verdict.passed = false;
    std::string list;
    for (const std::string& c : changed) list += (list.empty() ? "" : ", ") + c;
    result.verdict.note = "the variant changed a registered input: " + list +
                          (result.verdict.note.empty() ? "" : "; " + result.verdict.note);
  }
  return result;
}

}  // namespace cudalab::host
