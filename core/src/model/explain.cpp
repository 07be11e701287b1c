// explain: the access model's predictions for every variant of a plan, without a GPU.
#include "model/explain.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ostream>

#include "plugin/spec_lookup.hpp"

namespace cudalab::host {

std::vector<explain_row> explain_plan(const planned_lab& pl, const std::vector<std::string>& variant_filter) {
  std::vector<explain_row> rows;
  const auto names = variants_to_run(pl.plan, variant_filter);
  for (std::uint64_t i = 0; i < pl.plan.point_count(); ++i) {
    const params p = pl.plan.point(i);
    for (const auto& name : names) {
      access_model model;
      pl.plugin->instance->trace(p, find_variant(pl.plugin->spec, name), model);
      explain_row row{pl.file_arg, pl.plan.point_labels(i), name, false, model.stats()};
      row.traced = !row.stats.empty();
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

namespace {

std::string global_cells(const global_totals& g) {
  if (g.requests == 0) return fmt::format("{:>10} {:>8} {:>6}", "-", "-", "-");
  return fmt::format("{:>10} {:>8.2f} {:>5.0f}%", g.requests, g.sectors_per_request(), 100.0 * g.efficiency());
}

std::string shared_cells(const shared_totals& s) {
  if (s.requests == 0) return fmt::format("{:>9} {:>9}", "-", "-");
  return fmt::format("{:>9.2f} {:>9.2f}", s.wavefronts_per_request(), s.conflicts_per_request());
}

nlohmann::json global_json(const global_totals& g) {
  return {{"requests", g.requests}, {"sectors", g.sectors}, {"lines", g.lines},
          {"requested_bytes", g.requested_bytes}, {"sectors_per_request", g.sectors_per_request()},
          {"efficiency", g.efficiency()}};
}

nlohmann::json shared_json(const shared_totals& s) {
  return {{"requests", s.requests}, {"wavefronts", s.wavefronts}, {"conflicts", s.conflicts()},
          {"wavefronts_per_request", s.wavefronts_per_request()}, {"conflicts_per_request", s.conflicts_per_request()}};
}

}  // namespace

void print_explain_table(std::ostream& out, const std::vector<explain_row>& rows) {
  std::string heading;
  for (const auto& r : rows) {
    const std::string h = r.lab_file + (r.point.empty() ? "" : "  [" + labels_text(r.point) + "]");
    if (h != heading) {
      heading = h;
      out << "\n" << h << "\n";
      out << fmt::format("  {:<22} {:>10} {:>8} {:>6}  {:>10} {:>8} {:>6}  {:>9} {:>9}  {:>9} {:>9}\n", "variant",
                         "ld req", "sec/req", "eff", "st req", "sec/req", "eff", "shld wf/r", "conf/req",
                         "shst wf/r", "conf/req");
    }
    if (!r.traced) {
      out << fmt::format("  {:<22} (not modelled: a library call or host work)\n", r.variant);
      continue;
    }
    const auto& s = r.stats;
    out << fmt::format("  {:<22} {}  {}  {}  {}", r.variant, global_cells(s.global_load), global_cells(s.global_store),
                       shared_cells(s.shared_load), shared_cells(s.shared_store));
    if (s.total_warps > 0) out << fmt::format("  (sampled {} of {} warps)", s.traced_warps, s.total_warps);
    out << "\n";
  }
}

void print_explain_json(std::ostream& out, const std::vector<explain_row>& rows) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json point = nlohmann::json::object();
    for (const auto& [k, v] : r.point) point[k] = v;
    nlohmann::json j = {{"lab_file", r.lab_file}, {"point", point}, {"variant", r.variant}, {"traced", r.traced}};
    if (r.traced) {
      j["global_load"] = global_json(r.stats.global_load);
      j["global_store"] = global_json(r.stats.global_store);
      j["shared_load"] = shared_json(r.stats.shared_load);
      j["shared_store"] = shared_json(r.stats.shared_store);
      j["traced_warps"] = r.stats.traced_warps;
      j["total_warps"] = r.stats.total_warps;
    }
    all.push_back(std::move(j));
  }
  out << all.dump(2) << "\n";
}

}  // namespace cudalab::host
