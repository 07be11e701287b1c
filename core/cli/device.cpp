// `cudalab device`: the GPU's properties, its measured bandwidth ceilings, and its clocks, power and
// throttling now (NVML).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>

#include "command.hpp"
#include "cudalab/cuda_error.hpp"
#include "device/ceilings.hpp"
#include "device/gpu_probe.hpp"
#include "device/nvml.hpp"
#include "exit_codes.hpp"
#include "isolation/gpu_workers.hpp"
#include "option_checks.hpp"
#include "results/json.hpp"

namespace cudalab::cli {

namespace {

struct device_options {
  std::string format;  ///< table (default) or json
  int device = -1;     ///< --device N: -1 when not given
};

int device(const device_options& o) {
  if (o.device >= 0) {
    try {
      host::see_only_device(o.device);  // as `run --device` does, before the first CUDA call
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "cudalab: --device: {}\n", e.what());
      return host::exit_no_gpu;
    }
  }
  const host::gpu_status gpu = host::probe_gpu();
  if (!gpu.usable) {
    fmt::print(stderr, "cudalab: {}\n", host::no_gpu_message(gpu));
    if (o.device >= 0) fmt::print(stderr, "cudalab: there is no GPU {} (--device counts from 0)\n", o.device);
    return host::exit_no_gpu;
  }
  try {
    device_info d = host::read_device_info(0);
    if (o.device >= 0) d.ordinal = o.device;
    const host::ceilings c = host::measure_ceilings(d, host::measure_settings{});
    // Sampled after the ceilings' copies, so the clocks are those of a GPU that was just at work.
    const host::nvml_library nvml;
    const std::string pci_bus_id = host::read_pci_bus_id(0);
    std::string why;
    const auto now = nvml.sample(pci_bus_id, why);
    if (o.format == "json") {
      // The device and ceilings objects of the results' context (results/json.hpp), the device count
      // (with --device, 1: the process sees that GPU alone), and the GPU's state now as a sample of the
      // context's gpu_state (null, with the reason, when NVML cannot give one).
      nlohmann::ordered_json j = d;
      j["devices"] = gpu.device_count;
      j["ceilings"] = c;
      j["pci_bus_id"] = pci_bus_id;
      j["nvml"] = nvml.status();
      j["gpu_sample"] = now ? nlohmann::ordered_json(*now) : nlohmann::ordered_json(nullptr);
      j["gpu_sample_unavailable"] = now ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(why);
      fmt::print("{}\n", host::json_text(j, 2));
      return host::exit_ok;
    }
    if (o.device >= 0)
      fmt::print("{} (compute capability {}.{}), {} SMs, GPU {} (--device)\n", d.name, d.cc_major, d.cc_minor,
                 d.sm_count, o.device);
    else
      fmt::print("{} (compute capability {}.{}), {} SMs, device 0 of {}\n", d.name, d.cc_major, d.cc_minor, d.sm_count,
                 gpu.device_count);
    fmt::print("  memory            {:.1f} GiB, bus {} bits at {} MHz: theoretical peak {:.0f} GB/s\n",
               d.global_memory_bytes / double(1 << 30), d.memory_bus_width_bits, d.memory_clock_khz / 1000,
               d.peak_dram_gbps());
    fmt::print("  L2 cache          {:.1f} MiB\n", d.l2_cache_bytes / double(1 << 20));
    fmt::print("  shared per block  {} KiB (opt-in)\n", d.shared_memory_per_block_optin_bytes / 1024);
    if (now) {
      const auto slowed = host::active_slowdowns(*now);
      fmt::print("  now (NVML)        {}\n", host::sample_text(*now));
      fmt::print("  throttled         {}\n", slowed.empty() ? "no" : fmt::format("yes: {}", fmt::join(slowed, ", ")));
      fmt::print("  driver            {}, PCI bus id {}\n", nvml.status().driver_version, pci_bus_id);
    } else {
      fmt::print("  now (NVML)        unknown: {}\n", why);
    }
    fmt::print("Measured ceilings (GB/s = 10^9 bytes/s, median):\n");
    fmt::print("  device-to-device copy (read + write)  {:8.1f}\n", c.d2d_copy_gbps);
    fmt::print("  the same within L2 (2 x L2/4)         {:8.1f}\n", c.l2_copy_gbps);
    fmt::print("  pinned host -> device                 {:8.1f}\n", c.h2d_gbps);
    fmt::print("  device -> pinned host                 {:8.1f}\n", c.d2h_gbps);
    fmt::print("  both directions at once               {:8.1f}\n", c.bidir_gbps);
    return host::exit_ok;
  } catch (const cuda_error& e) {
    fmt::print(stderr, "cudalab: {}\n", e.what());
    return host::exit_cuda_error;
  }
}

}  // namespace

command add_device(CLI::App& app) {
  auto o = std::make_shared<device_options>();
  auto* cmd = app.add_subcommand("device", "Show the GPU's properties and measure its bandwidth ceilings");
  cmd->add_option("--format", o->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("--device", o->device,
                  "Show this GPU (a CUDA ordinal, counted from 0 among those CUDA_VISIBLE_DEVICES shows)")
      ->type_name("N")
      ->check(device_ordinal());
  return {cmd, [o] { return device(*o); }};
}

}  // namespace cudalab::cli
