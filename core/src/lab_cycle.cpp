// One verified execution of a variant (poison -> run -> synchronise -> verify), and default params.
#include "lab_cycle.hpp"

#include <stdexcept>

#include "cudalab/cuda_error.hpp"

namespace cudalab::host {

params default_params(const lab_spec& spec) {
  params p;
  for (const param_spec& ps : spec.params) p.set(ps.name, ps.default_value);
  return p;
}

const variant_spec& find_variant(const lab_spec& spec, const std::string& name) {
  for (const variant_spec& v : spec.variants)
    if (v.name == name) return v;
  std::string names;
  for (const variant_spec& v : spec.variants) names += (names.empty() ? "" : ", ") + v.name;
  throw std::out_of_range("lab '" + spec.name + "' has no variant '" + name + "' (it has: " + names + ")");
}

check run_and_verify(lab& l, const variant_spec& v, host_session& session) {
  session.poison_outputs();
  l.run(v, session.stream());
  CUDALAB_CUDA_CHECK(cudaPeekAtLastError());
  CUDALAB_CUDA_CHECK(cudaStreamSynchronize(session.stream()));
  return l.verify(v);
}

}  // namespace cudalab::host
