// What Nsight Compute counted for one variant at one point (`run --profile`), beside the model's
// prediction: totals over every kernel the variant's verified run launched (docs/model.md maps each
// field to its counter and to the model's quantity).
#pragma once

#include <cstdint>

namespace cudalab::host {

/// Global loads, stores or atomics as the L1TEX unit's tag stage counted them.
struct measured_global {
  std::uint64_t requests =
      0;  ///< l1tex__t_requests_pipe_lsu_mem_global_op_*: one per warp instruction with an active lane
  std::uint64_t sectors = 0;  ///< l1tex__t_sectors_pipe_lsu_mem_global_op_*: 32-byte sectors those requests asked for
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
};

/// Shared-memory loads, stores or atomics as the SM and the L1TEX data stage counted them.
struct measured_shared {
  std::uint64_t requests = 0;      ///< smsp__sass_inst_executed_op_shared_*: instructions with an active lane
  std::uint64_t instructions = 0;  ///< smsp__inst_executed_op_shared_*: also those whose lanes were all predicated off
  std::uint64_t wavefronts = 0;  ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*: every wavefront of the data stage
  std::uint64_t address_wavefronts = 0;  ///< sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*: the wavefronts
                                         ///< the instructions' addresses need (per instruction, from SASS)
  std::uint64_t conflicts = 0;  ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*: wavefronts over the ideal

  /// The fewest wavefronts the data stage could have used: wavefronts - conflicts.
  std::uint64_t ideal_wavefronts() const { return wavefronts > conflicts ? wavefronts - conflicts : 0; }
  /// The conflicts the addresses cause: address wavefronts over the ideal (what the model predicts).
  std::uint64_t address_conflicts() const {
    return address_wavefronts > ideal_wavefronts() ? address_wavefronts - ideal_wavefronts() : 0;
  }
  /// Wavefronts the data stage spent beyond what the addresses need: other traffic through L1 at the
  /// same time (global loads' and stores' data), counted by the hardware as bank conflicts too.
  std::uint64_t contention() const { return wavefronts > address_wavefronts ? wavefronts - address_wavefronts : 0; }
  double address_conflicts_per_request() const {
    return requests ? double(address_conflicts()) / double(requests) : 0.0;
  }
  double wavefronts_per_request() const { return requests ? double(address_wavefronts) / double(requests) : 0.0; }
};

/// Every counter `run --profile` collects for one result.
struct measured_counters {
  std::uint64_t kernels = 0;  ///< kernels counted (launched inside the variant's NVTX range)
  measured_global global_load, global_store;
  measured_global global_atomic;  ///< atomics with a result (atom) and without (red) together
  measured_shared shared_load, shared_store, shared_atomic;
  std::uint64_t dram_bytes_read = 0;     ///< dram__bytes_read.sum
  std::uint64_t dram_bytes_written = 0;  ///< dram__bytes_write.sum
};

}  // namespace cudalab::host
