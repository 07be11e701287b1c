// host_session: the session the host gives a lab's setup(), and what it does with the registered
// buffers: outputs poisoned or zeroed before runs, inputs checksummed and checked after them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"

namespace cudalab::host {

/// The byte every poisoned output is filled with before a verified run (NaN for floats, -1 for ints).
inline constexpr int poison_byte = 0xFF;

/// A session on one device: one stream, one seed, and the buffers the current point registered.
class host_session final : public session {
 public:
  host_session(const device_info& device, std::uint64_t seed);

  const lab_context& context() const override { return context_; }
  void register_output(void* ptr, std::size_t bytes, memory_kind where, output_init init) override;
  void register_input(const void* ptr, std::size_t bytes, memory_kind where) override;

  /// Before a verified run: every poisoned output filled with poison_byte, every zeroed one with 0;
  /// waits for it to finish.
  void prepare_verified_run();
  /// Before a timed run: enqueues the zeroing of the zeroed outputs on `stream`, and with `poison` the
  /// poisoning of the poisoned ones ([measure] poison_each_launch), as before a verified run, without a
  /// synchronisation: pageable host memory is filled by the CPU in a host function in stream order. Does
  /// nothing when there are none. REQUIRES: the registrations stay until the stream has run it.
  void prepare_timed_run(cudaStream_t stream, bool poison);
  /// True when some output must be prepared before every timed run: a zeroed one, or with `poison` any.
  bool resets_outputs(bool poison) const;

  /// Records the checksum of every registered input (after setup() returned; synchronises first).
  void record_inputs();
  /// The registered inputs whose checksum differs from the recorded one, as "input N (B bytes)".
  std::vector<std::string> changed_inputs();

  std::size_t output_count() const { return outputs_.size(); }
  /// Forgets the registrations (when the point that made them is destroyed).
  void clear_registrations();

 private:
  // Host memory the device maps (mapped pinned) is checksummed and filled on the GPU through its device
  // address (`mapped`), on the session stream: the bus moves it faster than one CPU thread mixes or sets
  // it, and a fill between timed launches needs no synchronisation. Null for device and pageable memory.
  struct output {
    void* ptr;
    std::size_t bytes;
    memory_kind where;
    output_init init;
    void* mapped = nullptr;
  };
  struct input {
    const void* ptr;
    std::size_t bytes;
    memory_kind where;
    std::uint64_t checksum = 0;
    const void* mapped = nullptr;
  };
  std::uint64_t checksum_of(const input& in);
  void fill(const output& o, int byte, cudaStream_t stream);
  static void CUDART_CB fill_on_host(void* output);  // cudaLaunchHostFunc's: an unmapped host output

  lab_context context_;
  cudalab::stream stream_;
  std::vector<output> outputs_;
  std::vector<input> inputs_;
};

}  // namespace cudalab::host
