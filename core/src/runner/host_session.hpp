// host_session: the session the host gives a lab, and the poisoning of its registered outputs.
#pragma once

#include <cstdint>
#include <vector>

#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"

namespace cudalab::host {

/// The byte every output is filled with before a verified run (NaN for floats, -1 for ints).
inline constexpr int poison_byte = 0xFF;

/// A session on one device: one stream, one seed, the outputs the lab registered.
class host_session final : public session {
 public:
  host_session(const device_info& device, std::uint64_t seed);

  cudaStream_t stream() const override { return stream_.get(); }
  std::uint64_t seed() const override { return seed_; }
  const device_info& device() const override { return device_; }
  void register_output(void* ptr, std::size_t bytes, memory_kind where) override;

  /// Fills every registered output with poison_byte and waits for it to finish.
  void poison_outputs();
  /// Forgets the registered outputs (after teardown).
  void clear_outputs() { outputs_.clear(); }
  std::size_t output_count() const { return outputs_.size(); }

 private:
  struct output {
    void* ptr;
    std::size_t bytes;
    memory_kind where;
  };
  device_info device_;
  std::uint64_t seed_;
  cudalab::stream stream_;
  std::vector<output> outputs_;
};

}  // namespace cudalab::host
