// The roofline a result is judged against: the measured ceiling of the memory its bytes move through,
// chosen by its working set - DRAM's copy when that is larger than L2, the L2 copy when it fits - or the
// host bus's for traffic that crosses it. A GB/s figure above it (with a margin) is physically impossible.
#pragma once

#include <cstdint>
#include <string>

#include "cudalab/lab.hpp"
#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

/// A measured ceiling, GB/s, and which one it is.
struct measured_ceiling {
  double gbps = 0;    ///< 0: not measured (nothing to judge against)
  std::string which;  ///< "DRAM copy", "L2 copy", "H2D copy", "D2H copy" or "H2D + D2H at once"
};

/// The bus ceiling of host-bus traffic `t`: both directions at once when it reads and writes, else the
/// one way it goes (H2D for reads of host memory, D2H for writes).
measured_ceiling bus_ceiling(const traffic& t, const ceilings& c);

/// What roofline_of() judged a result by.
struct roofline {
  double gbps = 0;                      ///< the ceiling; 0 when the one that applies was not measured (no judgement)
  std::string which;                    ///< "DRAM copy", "L2 copy", or a bus ceiling's name (measured_ceiling::which)
  std::uint64_t working_set_bytes = 0;  ///< the result's traffic footprint: bytes read + bytes written
  std::uint64_t l2_bytes = 0;           ///< the L2 size it was compared with (0: unknown)
};

/// The ceiling `r`'s GB/s must be judged against. Device traffic: the L2 copy ceiling when the working
/// set (r.bytes.total()) fits in the L2 of r's GPU (at most l2_cache_bytes), the DRAM copy ceiling
/// when it is larger or L2's size is unknown. Host-bus traffic: bus_ceiling(). The GPU is the
/// context's, or, in a run over several (--devices), the one r.device names. gbps is 0 when that
/// ceiling was not measured (a context written before the L2 copy was), so a caller judges nothing.
roofline roofline_of(const variant_result& r, const run_context& context);

}  // namespace cudalab::host
