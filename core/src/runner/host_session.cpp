// host_session: outputs prepared before runs, inputs checked after them (host_session.hpp).
#include "runner/host_session.hpp"

#include <cstring>
#include <stdexcept>

#include "device/checksum.hpp"

namespace cudalab::host {

namespace {

// The device's address of host memory it maps; null for device memory and for pageable host memory (the
// CPU checks and fills it). Asked of the pointer's attributes, which answer for pageable memory without an
// error: a failed call, even one cleared at once, is an error to compute-sanitizer (memcheck failed every
// mapped_pinned run when cudaHostGetDevicePointer was asked instead).
void* mapped_address(const void* ptr, std::size_t bytes, memory_kind where) {
  if (where != memory_kind::host || ptr == nullptr || bytes == 0) return nullptr;
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return attributes.type == cudaMemoryTypeHost ? attributes.devicePointer : nullptr;
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
  outputs_.push_back({ptr, bytes, where, init, mapped_address(ptr, bytes, where)});
}

void host_session::register_input(const void* ptr, std::size_t bytes, memory_kind where) {
  if (ptr == nullptr && bytes > 0)
    throw std::invalid_argument("register_input: a null pointer for " + std::to_string(bytes) + " bytes");
  inputs_.push_back({ptr, bytes, where, 0, mapped_address(ptr, bytes, where)});
}

void host_session::fill(const output& o, int byte, cudaStream_t stream) {
  if (o.where == memory_kind::device || o.mapped)
    CUDALAB_CUDA_CHECK(cudaMemsetAsync(o.mapped ? o.mapped : o.ptr, byte, o.bytes, stream));
  else
    std::memset(o.ptr, byte, o.bytes);
}

void host_session::prepare_verified_run() {
  // Host outputs may be written by work still in flight: finish it before touching them.
  stream_.synchronize();
  for (const output& o : outputs_) fill(o, o.init == output_init::poison ? poison_byte : 0, stream_.get());
  stream_.synchronize();
}

bool host_session::resets_outputs(bool poison) const {
  for (const output& o : outputs_)
    if (o.init == output_init::zero || poison) return true;
  return false;
}

void host_session::prepare_timed_run(cudaStream_t stream, bool poison) {
  for (const output& o : outputs_) {
    if (o.init != output_init::zero && !poison) continue;
    if (o.where == memory_kind::host && !o.mapped) {
      // The CPU fills pageable memory once the stream reaches the fill: a host function in stream order,
      // never a wait here. A timed sample is enqueued behind the blocking kernel, which a wait would hold
      // until its timeout, and every sample after it would be host-paced (mapped_pinned's pageable output
      // did that to every graded launcher of mapped-overlap on the H100: 9.9 ms for 3.0).
      CUDALAB_CUDA_CHECK(cudaLaunchHostFunc(stream, &fill_on_host, const_cast<output*>(&o)));
      continue;
    }
    fill(o, o.init == output_init::poison ? poison_byte : 0, stream);
  }
}

void CUDART_CB host_session::fill_on_host(void* output_ptr) {
  const auto& o = *static_cast<const output*>(output_ptr);
  std::memset(o.ptr, o.init == output_init::poison ? poison_byte : 0, o.bytes);
}

std::uint64_t host_session::checksum_of(const input& in) {
  if (in.mapped) return device_checksum(in.mapped, in.bytes, stream_.get());
  return in.where == memory_kind::device ? device_checksum(in.ptr, in.bytes, stream_.get())
                                         : host_checksum(in.ptr, in.bytes);
}

void host_session::record_inputs() {
  stream_.synchronize();
  for (input& in : inputs_) in.checksum = checksum_of(in);
}

std::vector<std::string> host_session::changed_inputs() {
  stream_.synchronize();
  std::vector<std::string> changed;
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    if (checksum_of(inputs_[i]) != inputs_[i].checksum)
      changed.push_back("input " + std::to_string(i + 1) + " (" + std::to_string(inputs_[i].bytes) + " bytes, " +
                        (inputs_[i].where == memory_kind::device ? "device" : "host") + " memory)");
  return changed;
}

void host_session::clear_registrations() {
  outputs_.clear();
  inputs_.clear();
}

}  // namespace cudalab::host
