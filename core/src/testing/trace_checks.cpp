// cudalab::testing's checks of traces without a plugin: the access model over a lab's own tracing code,
// over every block of a tile grid (the exact figure trace_tiles must equal), and the totals that differ.
#include <string>

#include "cudalab/testing.hpp"
#include "model/access_model.hpp"

namespace cudalab::testing {

access_stats predict_trace(const std::function<void(trace_sink&)>& trace) {
  host::access_model model;
  trace(model);
  return model.stats();
}

access_stats predict_every_block(const tile_grid& grid,
                                 const std::function<void(trace_sink&, const tile_block&)>& trace_block) {
  return predict_trace([&](trace_sink& sink) {
    for (std::uint64_t z = 0; z < grid.blocks_along(2); ++z)
      for (std::uint64_t y = 0; y < grid.blocks_along(1); ++y)
        for (std::uint64_t x = 0; x < grid.blocks_along(0); ++x) trace_block(sink, tile_block{x, y, z});
  });
}

std::string difference(const access_stats& expected, const access_stats& got) {
  std::string text;
  auto compare = [&](const std::string& name, std::uint64_t e, std::uint64_t g) {
    if (e != g) text += name + ": " + std::to_string(e) + " expected, " + std::to_string(g) + " got\n";
  };
  const std::pair<const char*, global_totals access_stats::*> globals[] = {
      {"global_load", &access_stats::global_load},
      {"global_store", &access_stats::global_store},
      {"global_atomic", &access_stats::global_atomic}};
  for (const auto& [name, member] : globals) {
    const global_totals &e = expected.*member, &g = got.*member;
    compare(std::string(name) + ".requests", e.requests, g.requests);
    compare(std::string(name) + ".sectors", e.sectors, g.sectors);
    compare(std::string(name) + ".lines", e.lines, g.lines);
    compare(std::string(name) + ".requested_bytes", e.requested_bytes, g.requested_bytes);
  }
  const std::pair<const char*, shared_totals access_stats::*> shareds[] = {
      {"shared_load", &access_stats::shared_load},
      {"shared_store", &access_stats::shared_store},
      {"shared_atomic", &access_stats::shared_atomic}};
  for (const auto& [name, member] : shareds) {
    const shared_totals &e = expected.*member, &g = got.*member;
    compare(std::string(name) + ".requests", e.requests, g.requests);
    compare(std::string(name) + ".wavefronts", e.wavefronts, g.wavefronts);
    compare(std::string(name) + ".ideal_wavefronts", e.ideal_wavefronts, g.ideal_wavefronts);
  }
  compare("traced_warps", expected.traced_warps, got.traced_warps);
  compare("total_warps", expected.total_warps, got.total_warps);
  return text;
}

}  // namespace cudalab::testing
