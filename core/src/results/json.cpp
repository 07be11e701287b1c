// Reading results back from their JSON (the schema of result_json/context_json): how a child process
// of an isolated run hands its results to the parent, line by line.
#include "results/json.hpp"

#include <nlohmann/json.hpp>

#include <limits>

namespace cudalab::host {

namespace {

using json = nlohmann::ordered_json;  // keeps the point's axes in the order written

// Numbers: null stands for NaN (what the writer makes of it).
double real(const json& j, const char* key) {
  const json& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

template <typename T>
T integer(const json& j, const char* key) {
  return j.at(key).get<T>();
}

result_status status_of(const std::string& name) {
  for (const result_status s : {result_status::ok, result_status::verify_failed, result_status::error, result_status::skipped})
    if (name == status_name(s)) return s;
  throw result_parse_error("unknown result status '" + name + "'");
}

global_totals global_of(const json& j) {
  global_totals g;
  g.requests = integer<std::uint64_t>(j, "requests");
  g.sectors = integer<std::uint64_t>(j, "sectors");
  g.lines = integer<std::uint64_t>(j, "lines");
  g.requested_bytes = integer<std::uint64_t>(j, "requested_bytes");
  return g;
}

shared_totals shared_of(const json& j) {
  shared_totals s;
  s.requests = integer<std::uint64_t>(j, "requests");
  s.wavefronts = integer<std::uint64_t>(j, "wavefronts");
  s.ideal_wavefronts = integer<std::uint64_t>(j, "ideal_wavefronts");
  return s;
}

variant_result result_of(const json& j) {
  variant_result r;
  r.lab_file = j.at("lab_file").get<std::string>();
  r.plugin = j.at("plugin").get<std::string>();
  r.title = j.at("title").get<std::string>();
  r.point_index = integer<std::uint64_t>(j, "point_index");
  for (const auto& [k, v] : j.at("point").items()) r.point.emplace_back(k, v.get<std::string>());
  r.variant = j.at("variant").get<std::string>();
  r.variant_summary = j.at("summary").get<std::string>();
  r.is_baseline = j.at("baseline").get<bool>();
  r.status = status_of(j.at("status").get<std::string>());
  r.error = j.at("error").get<std::string>();

  const json& c = j.at("verification");
  r.verification.passed = c.at("passed").get<bool>();
  r.verification.checked = integer<std::uint64_t>(c, "checked");
  r.verification.mismatches = integer<std::uint64_t>(c, "mismatches");
  r.verification.max_abs_error = real(c, "max_abs_error");
  r.verification.max_rel_error = real(c, "max_rel_error");
  r.verification.tolerance = c.at("tolerance").get<std::string>();
  r.verification.first_mismatches = c.at("first_mismatches").get<std::vector<std::string>>();
  r.verification.note = c.at("note").get<std::string>();

  const json& t = j.at("traffic");
  r.bytes.bytes_read = integer<std::uint64_t>(t, "bytes_read");
  r.bytes.bytes_written = integer<std::uint64_t>(t, "bytes_written");
  r.bytes.path = t.at("path").get<std::string>() == "device" ? memory_path::device : memory_path::host_bus;

  const json& m = j.at("timing");
  r.time.timed = m.at("timed").get<bool>();
  r.time.samples = integer<std::uint64_t>(m, "samples");
  r.time.batch = integer<std::uint64_t>(m, "batch");
  r.time.median_ms = real(m, "median_ms");
  r.time.min_ms = real(m, "min_ms");
  r.time.max_ms = real(m, "max_ms");
  r.time.mean_ms = real(m, "mean_ms");
  r.time.cv = real(m, "cv");
  r.time.l2_flushed = m.at("l2_flushed").get<bool>();

  r.gbps = real(j, "gbps");
  r.pct_of_baseline = real(j, "pct_of_baseline");
  r.pct_of_ceiling = real(j, "pct_of_ceiling");
  r.pct_of_peak = real(j, "pct_of_peak");

  const json& model = j.at("model");
  r.has_model = !model.is_null();
  if (r.has_model) {
    r.model.global_load = global_of(model.at("global_load"));
    r.model.global_store = global_of(model.at("global_store"));
    r.model.shared_load = shared_of(model.at("shared_load"));
    r.model.shared_store = shared_of(model.at("shared_store"));
    r.model.traced_warps = integer<std::uint64_t>(model, "traced_warps");
    r.model.total_warps = integer<std::uint64_t>(model, "total_warps");
  }
  return r;
}

run_context context_of(const json& j) {
  run_context c;
  c.cudalab_version = j.at("cudalab_version").get<std::string>();
  c.started_at = j.at("started_at").get<std::string>();
  c.command_line = j.at("command_line").get<std::string>();
  c.profile = j.at("profile").get<std::string>();
  const json& d = j.at("device");
  device_info& info = c.device;
  info.ordinal = integer<int>(d, "ordinal");
  info.name = d.at("name").get<std::string>();
  const std::string cc = d.at("compute_capability").get<std::string>();
  const auto dot = cc.find('.');
  if (dot == std::string::npos) throw result_parse_error("compute_capability '" + cc + "' is not MAJOR.MINOR");
  info.cc_major = std::stoi(cc.substr(0, dot));
  info.cc_minor = std::stoi(cc.substr(dot + 1));
  info.sm_count = integer<int>(d, "sm_count");
  info.global_memory_bytes = integer<std::uint64_t>(d, "global_memory_bytes");
  info.l2_cache_bytes = integer<std::uint64_t>(d, "l2_cache_bytes");
  info.shared_memory_per_block_optin_bytes = integer<std::uint64_t>(d, "shared_memory_per_block_optin_bytes");
  info.max_threads_per_block = integer<int>(d, "max_threads_per_block");
  info.can_map_host_memory = d.at("can_map_host_memory").get<bool>();
  info.memory_bus_width_bits = integer<int>(d, "memory_bus_width_bits");
  info.memory_clock_khz = integer<int>(d, "memory_clock_khz");
  const json& m = j.at("ceilings");
  c.measured.d2d_copy_gbps = real(m, "d2d_copy_gbps");
  c.measured.h2d_gbps = real(m, "h2d_gbps");
  c.measured.d2h_gbps = real(m, "d2h_gbps");
  c.measured.bidir_gbps = real(m, "bidir_gbps");
  return c;
}

// Runs `read` on the parsed text, turning every JSON or schema failure into result_parse_error.
template <typename Read>
auto parse_with(const std::string& text, Read read) {
  try {
    return read(json::parse(text));
  } catch (const json::exception& e) {
    throw result_parse_error(std::string("not a cudalab result line: ") + e.what());
  } catch (const std::logic_error& e) {  // std::stoi on a bad compute capability
    throw result_parse_error(std::string("not a cudalab result line: ") + e.what());
  }
}

}  // namespace

variant_result parse_result_json(const std::string& text) { return parse_with(text, result_of); }

run_context parse_context_json(const std::string& text) { return parse_with(text, context_of); }

results_line parse_results_line(const std::string& line) {
  return parse_with(line, [](const json& j) {
    results_line out;
    if (j.is_object() && j.contains("context")) {
      out.is_context = true;
      out.context = context_of(j.at("context"));
    } else {
      out.result = result_of(j);
    }
    return out;
  });
}

}  // namespace cudalab::host
