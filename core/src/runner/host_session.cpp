// host_session: the session the host gives a lab, and the poisoning of its registered outputs.
#include "runner/host_session.hpp"

#include <cstring>
#include <stdexcept>

namespace cudalab::host {

host_session::host_session(const device_info& device, std::uint64_t seed) : device_(device), seed_(seed) {}

void host_session::register_output(void* ptr, std::size_t bytes, memory_kind where) {
  if (ptr == nullptr && bytes > 0) throw std::invalid_argument("register_output: null pointer");
  outputs_.push_back({ptr, bytes, where});
}

void host_session::poison_outputs() {
  // Host outputs may be written by work still in flight: finish it before touching them.
  stream_.synchronize();
  for (const output& o : outputs_) {
    if (o.where == memory_kind::device)
      CUDALAB_CUDA_CHECK(cudaMemsetAsync(o.ptr, poison_byte, o.bytes, stream_.get()));
    else
      std::memset(o.ptr, poison_byte, o.bytes);
  }
  stream_.synchronize();
}

}  // namespace cudalab::host
