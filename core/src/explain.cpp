// The `explain` use case: the access model's predictions for every variant, without a GPU.
#include "explain.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

#include "labfile/lab_file.hpp"
#include "model/access_model.hpp"
#include "plugin/plugin_call.hpp"
#include "plugin/spec_lookup.hpp"
#include "results/json.hpp"

namespace cudalab::host {

namespace {

std::string global_cells(const global_totals& g) {
  if (g.requests == 0) return fmt::format("{:>10} {:>8} {:>6}", "-", "-", "-");
  return fmt::format("{:>10} {:>8.2f} {:>5.0f}%", g.requests, g.sectors_per_request(), 100.0 * g.efficiency());
}

std::string shared_cells(const shared_totals& s) {
  if (s.requests == 0) return fmt::format("{:>9} {:>9}", "-", "-");
  return fmt::format("{:>9.2f} {:>9.2f}", s.wavefronts_per_request(), s.conflicts_per_request());
}

std::string atomic_cells(const access_stats& s) {
  const global_totals& g = s.global_atomic;
  const std::string global = g.requests == 0 ? fmt::format("{:>10} {:>8}", "-", "-")
                                             : fmt::format("{:>10} {:>8.2f}", g.requests, g.sectors_per_request());
  return global + "  " + shared_cells(s.shared_atomic);
}

}  // namespace

std::vector<explain_row> explain_plan(const planned_lab& pl, const std::vector<std::string>& variant_filter,
                                      const device_info& device) {
  std::vector<explain_row> rows;
  const auto names = variants_to_run(pl.plan, variant_filter);
  lab_context context;
  context.seed = pl.plan.measure.seed;
  context.device = device;
  for (std::uint64_t i = 0; i < pl.plan.point_count(); ++i) {
    const params p = pl.plan.point(i);
    const auto labels = pl.plan.point_labels(i);
    for (const auto& name : names) {
      if (slot_of(pl.plugin->spec, name)) {  // a student's code: nothing the model has seen
        rows.push_back(explain_row{pl.file_arg, labels, name, false, {}});
        continue;
      }
      access_model model;
      const plugin_call call{pl.plugin->spec.name, "trace", name, labels_text(labels)};
      call_plugin(call, [&] { pl.plugin->instance->trace(p, variant_of(pl.plugin->spec, name), context, model); });
      explain_row row{pl.file_arg, labels, name, false, model.stats()};
      row.traced = !row.stats.empty();
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

void print_explain_table(std::ostream& out, const std::vector<explain_row>& rows) {
  const bool atomics = std::any_of(rows.begin(), rows.end(), [](const explain_row& r) {
    return r.stats.global_atomic.requests + r.stats.shared_atomic.requests > 0;
  });
  std::string heading;
  for (const auto& r : rows) {
    const std::string h = r.lab_file + (r.point.empty() ? "" : "  [" + labels_text(r.point) + "]");
    if (h != heading) {
      heading = h;
      out << "\n" << h << "\n";
      out << fmt::format("  {:<22} {:>10} {:>8} {:>6}  {:>10} {:>8} {:>6}  {:>9} {:>9}  {:>9} {:>9}", "variant",
                         "ld req", "sec/req", "eff", "st req", "sec/req", "eff", "shld wf/r", "conf/req", "shst wf/r",
                         "conf/req");
      if (atomics) out << fmt::format("  {:>10} {:>8}  {:>9} {:>9}", "atom req", "sec/req", "shat wf/r", "conf/req");
      out << "\n";
    }
    if (!r.traced) {
      out << fmt::format("  {:<22} (not modelled: a library call or host work)\n", r.variant);
      continue;
    }
    const auto& s = r.stats;
    out << fmt::format("  {:<22} {}  {}  {}  {}", r.variant, global_cells(s.global_load), global_cells(s.global_store),
                       shared_cells(s.shared_load), shared_cells(s.shared_store));
    if (atomics) out << "  " << atomic_cells(s);
    if (s.total_warps > 0) out << fmt::format("  (sampled {} of {} warps)", s.traced_warps, s.total_warps);
    out << "\n";
  }
}

void print_explain_json(std::ostream& out, const std::vector<explain_row>& rows) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    nlohmann::ordered_json point = nlohmann::ordered_json::object();
    for (const auto& [k, v] : r.point) point[k] = v;
    nlohmann::ordered_json j = {
        {"lab_file", r.lab_file}, {"point", point}, {"variant", r.variant}, {"traced", r.traced}};
    if (r.traced) j["model"] = r.stats;
    all.push_back(std::move(j));
  }
  out << json_text(all, 2) << "\n";
}

}  // namespace cudalab::host
