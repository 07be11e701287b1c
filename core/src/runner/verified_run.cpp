// One verified execution of a variant: poison the outputs, run, synchronise, verify.
#include "runner/verified_run.hpp"

#include "cudalab/cuda_error.hpp"

namespace cudalab::host {

check run_and_verify(lab& l, const variant_spec& v, host_session& session) {
  session.poison_outputs();
  l.run(v, session.stream());
  CUDALAB_CUDA_CHECK(cudaPeekAtLastError());
  CUDALAB_CUDA_CHECK(cudaStreamSynchronize(session.stream()));
  return l.verify(v);
}

}  // namespace cudalab::host
