// host_session: outputs prepared before runs, inputs checked after them (host_session.hpp).
#include "runner/host_session.hpp"

#include <cstring>
#include <stdexcept>

#include "device/checksum.hpp"

namespace cudalab::host {

namespace {

// The checksum of a registered input's bytes where they live (on the device, on `stream`).
std::uint64_t checksum_of(const void* ptr, std::size_t bytes, memory_kind where, cudaStream_t stream) {
  return where == memory_kind::device ? device_checksum(ptr, bytes, stream) : host_checksum(ptr, bytes);
}

}  // namespace

host_session::host_session(const device_info& device, std::uint64_t seed) {
  context_.seed = seed;
  context_.device = device;
  context_.stream = stream_.get();
}

void host_session::register_output(void* ptr, std::size_t bytes, memory_kind where, output_init init) {
  if (ptr == nullptr && bytes > 0)
    throw std::invalid_argument("register_output: a null pointer for " + std::to_string(bytes) + " bytes");
  outputs_.push_back({ptr, bytes, where, init});
}

void host_session::register_input(const void* ptr, std::size_t bytes, memory_kind where) {
  if (ptr == nullptr && bytes > 0)
    throw std::invalid_argument("register_input: a null pointer for " + std::to_string(bytes) + " bytes");
  inputs_.push_back({ptr, bytes, where});
}

void host_session::fill(const output& o, int byte, cudaStream_t stream) {
  if (o.where == memory_kind::device)
    CUDALAB_CUDA_CHECK(cudaMemsetAsync(o.ptr, byte, o.bytes, stream));
  else
    std::memset(o.ptr, byte, o.bytes);
}

void host_session::prepare_verified_run() {
  // Host outputs may be written by work still in flight: finish it before touching them.
  stream_.synchronize();
  for (const output& o : outputs_) fill(o, o.init == output_init::poison ? poison_byte : 0, stream_.get());
  stream_.synchronize();
}

bool host_session::resets_outputs() const {
  for (const output& o : outputs_)
    if (o.init == output_init::zero) return true;
  return false;
}

void host_session::prepare_timed_run(cudaStream_t stream) {
  for (const output& o : outputs_) {
    if (o.init != output_init::zero) continue;
    if (o.where == memory_kind::host) CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the CPU writes it
    fill(o, 0, stream);
  }
}

void host_session::record_inputs() {
  stream_.synchronize();
  for (input& in : inputs_) in.checksum = checksum_of(in.ptr, in.bytes, in.where, stream_.get());
}

std::vector<std::string> host_session::changed_inputs() {
  stream_.synchronize();
  std::vector<std::string> changed;
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    if (checksum_of(inputs_[i].ptr, inputs_[i].bytes, inputs_[i].where, stream_.get()) != inputs_[i].checksum)
      changed.push_back("input " + std::to_string(i + 1) + " (" + std::to_string(inputs_[i].bytes) + " bytes, " +
                        (inputs_[i].where == memory_kind::device ? "device" : "host") + " memory)");
  return changed;
}

void host_session::clear_registrations() {
  outputs_.clear();
  inputs_.clear();
}

}  // namespace cudalab::host
