// The roofline a result is judged against (roofline.hpp).
#include "results/roofline.hpp"

namespace cudalab::host {

measured_ceiling bus_ceiling(const traffic& t, const ceilings& c) {
  if (t.bytes_read > 0 && t.bytes_written > 0) return {c.bidir_gbps, "H2D + D2H at once"};
  if (t.bytes_read > 0) return {c.h2d_gbps, "H2D copy"};
  return {c.d2h_gbps, "D2H copy"};
}

roofline roofline_of(const variant_result& r, const run_context& context) {
  const device_info* device = &context.device;
  const ceilings* measured = &context.measured;
  for (const run_device& d : context.devices)
    if (r.device >= 0 && d.ordinal == r.device) {
      device = &d.device;
      measured = &d.measured;
    }
  roofline out;
  out.working_set_bytes = r.bytes.total();
  out.l2_bytes = device->l2_cache_bytes;
  if (r.bytes.path == memory_path::host_bus) {
    const measured_ceiling bus = bus_ceiling(r.bytes, *measured);
    out.gbps = bus.gbps;
    out.which = bus.which;
  } else if (out.l2_bytes > 0 && out.working_set_bytes <= out.l2_bytes) {
    out.gbps = measured->l2_copy_gbps;
    out.which = "L2 copy";
  } else {
    out.gbps = measured->d2d_copy_gbps;
    out.which = "DRAM copy";
  }
  if (!(out.gbps > 0)) out.gbps = 0;  // not measured, or NaN read back from null
  return out;
}

}  // namespace cudalab::host
