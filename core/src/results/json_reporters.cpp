// JSON reporters: the schema of one result and of the run's context, results.jsonl (streamed,
// flushed per result) and results.json (one document at the end). docs/results.md describes the fields.
#include <nlohmann/json.hpp>

#include <ostream>

#include "results/reporter.hpp"

namespace cudalab::host {

namespace {

using json = nlohmann::ordered_json;

// Raised when a field is renamed or removed or changes meaning (adding fields keeps it); docs/results.md.
constexpr int results_schema_version = 1;

// Text from plugins and the CUDA runtime may hold bytes that are not UTF-8; they become U+FFFD
// rather than an exception in the middle of a run.
std::string text(const json& j, int indent = -1) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

json global_json(const global_totals& g) {
  return {{"requests", g.requests},
          {"sectors", g.sectors},
          {"lines", g.lines},
          {"requested_bytes", g.requested_bytes},
          {"sectors_per_request", g.sectors_per_request()},
          {"efficiency", g.efficiency()}};
}

json shared_json(const shared_totals& s) {
  return {{"requests", s.requests},
          {"wavefronts", s.wavefronts},
          {"ideal_wavefronts", s.ideal_wavefronts},
          {"conflicts", s.conflicts()},
          {"wavefronts_per_request", s.wavefronts_per_request()},
          {"conflicts_per_request", s.conflicts_per_request()}};
}

json result_object(const variant_result& r) {
  json point = json::object();
  for (const auto& [k, v] : r.point) point[k] = v;
  const check& c = r.verification;
  json j = {{"lab_file", r.lab_file},
            {"plugin", r.plugin},
            {"title", r.title},
            {"point_index", r.point_index},
            {"point", point},
            {"variant", r.variant},
            {"summary", r.variant_summary},
            {"baseline", r.is_baseline},
            {"status", status_name(r.status)},
            {"error", r.error},
            {"verification",
             {{"passed", c.passed},
              {"checked", c.checked},
              {"mismatches", c.mismatches},
              {"max_abs_error", c.max_abs_error},
              {"max_rel_error", c.max_rel_error},
              {"tolerance", c.tolerance},
              {"first_mismatches", c.first_mismatches},
              {"note", c.note}}},
            {"traffic",
             {{"bytes_read", r.bytes.bytes_read},
              {"bytes_written", r.bytes.bytes_written},
              {"path", r.bytes.path == memory_path::device ? "device" : "host_bus"}}},
            {"timing",
             {{"timed", r.time.timed},
              {"samples", r.time.samples},
              {"batch", r.time.batch},
              {"median_ms", r.time.median_ms},
              {"min_ms", r.time.min_ms},
              {"max_ms", r.time.max_ms},
              {"mean_ms", r.time.mean_ms},
              {"cv", r.time.cv},
              {"l2_flushed", r.time.l2_flushed}}},
            {"gbps", r.gbps},
            {"pct_of_baseline", r.pct_of_baseline},
            {"pct_of_ceiling", r.pct_of_ceiling},
            {"pct_of_peak", r.pct_of_peak}};
  if (r.has_model) {
    j["model"] = {{"global_load", global_json(r.model.global_load)},
                  {"global_store", global_json(r.model.global_store)},
                  {"shared_load", shared_json(r.model.shared_load)},
                  {"shared_store", shared_json(r.model.shared_store)},
                  {"traced_warps", r.model.traced_warps},
                  {"total_warps", r.model.total_warps}};
  } else {
    j["model"] = nullptr;
  }
  return j;
}

json context_object(const run_context& c) {
  const device_info& d = c.device;
  return {{"schema_version", results_schema_version},
          {"cudalab_version", c.cudalab_version},
          {"started_at", c.started_at},
          {"command_line", c.command_line},
          {"profile", c.profile},
          {"device",
           {{"ordinal", d.ordinal},
            {"name", d.name},
            {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
            {"sm_count", d.sm_count},
            {"global_memory_bytes", d.global_memory_bytes},
            {"l2_cache_bytes", d.l2_cache_bytes},
            {"shared_memory_per_block_optin_bytes", d.shared_memory_per_block_optin_bytes},
            {"max_threads_per_block", d.max_threads_per_block},
            {"can_map_host_memory", d.can_map_host_memory},
            {"memory_bus_width_bits", d.memory_bus_width_bits},
            {"memory_clock_khz", d.memory_clock_khz},
            {"peak_dram_gbps", d.peak_dram_gbps()}}},
          {"ceilings",
           {{"d2d_copy_gbps", c.measured.d2d_copy_gbps},
            {"h2d_gbps", c.measured.h2d_gbps},
            {"d2h_gbps", c.measured.d2h_gbps},
            {"bidir_gbps", c.measured.bidir_gbps}}}};
}

class jsonl_reporter final : public reporter {
 public:
  explicit jsonl_reporter(std::ostream& out) : out_(out) {}
  void begin(const run_context& c) override { out_ << text(json{{"context", context_object(c)}}) << "\n" << std::flush; }
  void add(const variant_result& r) override { out_ << text(result_object(r)) << "\n" << std::flush; }
  void end() override { out_.flush(); }

 private:
  std::ostream& out_;
};

class json_reporter final : public reporter {
 public:
  explicit json_reporter(std::ostream& out) : out_(out) {}
  void begin(const run_context& c) override { context_ = context_object(c); }
  void add(const variant_result& r) override { results_.push_back(result_object(r)); }
  void end() override {
    out_ << text(json{{"context", context_}, {"results", results_}}, 2) << "\n";
    out_.flush();
  }

 private:
  std::ostream& out_;
  json context_ = json::object();
  json results_ = json::array();
};

}  // namespace

std::string result_json(const variant_result& r) { return text(result_object(r)); }
std::string context_json(const run_context& c) { return text(context_object(c)); }
std::unique_ptr<reporter> make_jsonl_reporter(std::ostream& out) { return std::make_unique<jsonl_reporter>(out); }
std::unique_ptr<reporter> make_json_reporter(std::ostream& out) { return std::make_unique<json_reporter>(out); }

}  // namespace cudalab::host
