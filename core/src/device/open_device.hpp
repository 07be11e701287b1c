// Getting the GPU ready for a run: probe, device properties, the memory refusal, the ceilings.
#pragma once

#include <optional>
#include <vector>

#include "device/ceilings.hpp"
#include "labfile/run_profile.hpp"
#include "plan/planning.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// The GPU part of getting ready, touched only now that every lab file is valid: probes the GPU,
/// reads device 0's properties, refuses points whose memory needs do not fit, and takes the ceilings
/// (`given`, else measured once per process with `timing` when any plan times), calling `progress`
/// (when set) after each of these steps. Fills ctx.device, ctx.measured and ctx.gpu.pci_bus_id (how
/// NVML finds the GPU later). Prints what went wrong on stderr; returns an exit code (exit_ok: the run
/// can start).
int open_device(const std::vector<planned_lab>& plans, const measure_settings& timing,
                const std::optional<ceilings>& given, run_context& ctx, const progress_fn& progress = {});

}  // namespace cudalab::host
