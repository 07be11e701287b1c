// The results JSON schema, written and read back in one place: each object's writer beside its reader.
#include "results/json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <limits>
#include <optional>

#include "results/counter_verdict.hpp"
#include "results/format.hpp"

namespace {

using json = nlohmann::ordered_json;  // keeps the fields, and the point's axes, in the order written

// Numbers: null stands for NaN (what the writer makes of it).
double real(const json& j, const char* key) {
  const json& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

// Optional values: null when empty; a key that is missing (files written before it) or null reads as empty.
template <typename T>
json maybe(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

template <typename T>
void get_maybe(const json& j, const char* key, std::optional<T>& out) {
  out.reset();
  if (j.contains(key) && !j.at(key).is_null()) out = j.at(key).get<T>();
}

// A text that is empty when missing or null.
void get_text(const json& j, const char* key, std::string& out) {
  out.clear();
  if (j.contains(key) && !j.at(key).is_null()) j.at(key).get_to(out);
}

}  // namespace

namespace cudalab {

void to_json(json& j, const device_info& d) {
  j = {{"ordinal", d.ordinal},
       {"name", d.name},
       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
       {"sm_count", d.sm_count},
       {"global_memory_bytes", d.global_memory_bytes},
       {"l2_cache_bytes", d.l2_cache_bytes},
       {"shared_memory_per_block_optin_bytes", d.shared_memory_per_block_optin_bytes},
       {"max_threads_per_block", d.max_threads_per_block},
       {"max_threads_per_sm", d.max_threads_per_sm},
       {"can_map_host_memory", d.can_map_host_memory},
       {"memory_bus_width_bits", d.memory_bus_width_bits},
       {"memory_clock_khz", d.memory_clock_khz},
       {"peak_dram_gbps", d.peak_dram_gbps()}};
}

void from_json(const json& j, device_info& d) {
  j.at("ordinal").get_to(d.ordinal);
  j.at("name").get_to(d.name);
  const std::string cc = j.at("compute_capability").get<std::string>();
  const auto dot = cc.find('.');
  if (dot == std::string::npos) throw host::result_parse_error("compute_capability '" + cc + "' is not MAJOR.MINOR");
  d.cc_major = std::stoi(cc.substr(0, dot));
  d.cc_minor = std::stoi(cc.substr(dot + 1));
  j.at("sm_count").get_to(d.sm_count);
  j.at("global_memory_bytes").get_to(d.global_memory_bytes);
  j.at("l2_cache_bytes").get_to(d.l2_cache_bytes);
  j.at("shared_memory_per_block_optin_bytes").get_to(d.shared_memory_per_block_optin_bytes);
  j.at("max_threads_per_block").get_to(d.max_threads_per_block);
  if (j.contains("max_threads_per_sm")) j.at("max_threads_per_sm").get_to(d.max_threads_per_sm);
  j.at("can_map_host_memory").get_to(d.can_map_host_memory);
  j.at("memory_bus_width_bits").get_to(d.memory_bus_width_bits);
  j.at("memory_clock_khz").get_to(d.memory_clock_khz);
}

void to_json(json& j, const verification& c) {
  j = {{"passed", c.passed},
       {"checked", c.checked},
       {"mismatches", c.mismatches},
       {"max_abs_error", c.max_abs_error},
       {"max_rel_error", c.max_rel_error},
       {"tolerance", c.tolerance},
       {"first_mismatches", c.first_mismatches},
       {"note", c.note}};
}

void from_json(const json& j, verification& c) {
  j.at("passed").get_to(c.passed);
  j.at("checked").get_to(c.checked);
  j.at("mismatches").get_to(c.mismatches);
  c.max_abs_error = real(j, "max_abs_error");
  c.max_rel_error = real(j, "max_rel_error");
  j.at("tolerance").get_to(c.tolerance);
  j.at("first_mismatches").get_to(c.first_mismatches);
  j.at("note").get_to(c.note);
}

void to_json(json& j, const traffic& t) {
  j = {{"bytes_read", t.bytes_read},
       {"bytes_written", t.bytes_written},
       {"path", t.path == memory_path::device ? "device" : "host_bus"}};
}

void from_json(const json& j, traffic& t) {
  j.at("bytes_read").get_to(t.bytes_read);
  j.at("bytes_written").get_to(t.bytes_written);
  t.path = j.at("path").get<std::string>() == "device" ? memory_path::device : memory_path::host_bus;
}

void to_json(json& j, const global_totals& g) {
  j = {{"requests", g.requests},
       {"sectors", g.sectors},
       {"lines", g.lines},
       {"requested_bytes", g.requested_bytes},
       {"sectors_per_request", g.sectors_per_request()},
       {"efficiency", g.efficiency()}};
}

void from_json(const json& j, global_totals& g) {
  j.at("requests").get_to(g.requests);
  j.at("sectors").get_to(g.sectors);
  j.at("lines").get_to(g.lines);
  j.at("requested_bytes").get_to(g.requested_bytes);
}

void to_json(json& j, const shared_totals& s) {
  j = {{"requests", s.requests},
       {"wavefronts", s.wavefronts},
       {"ideal_wavefronts", s.ideal_wavefronts},
       {"conflicts", s.conflicts()},
       {"wavefronts_per_request", s.wavefronts_per_request()},
       {"conflicts_per_request", s.conflicts_per_request()}};
}

void from_json(const json& j, shared_totals& s) {
  j.at("requests").get_to(s.requests);
  j.at("wavefronts").get_to(s.wavefronts);
  j.at("ideal_wavefronts").get_to(s.ideal_wavefronts);
}

void to_json(json& j, const access_stats& m) {
  j = {{"global_load", m.global_load},   {"global_store", m.global_store}, {"global_atomic", m.global_atomic},
       {"shared_load", m.shared_load},   {"shared_store", m.shared_store}, {"shared_atomic", m.shared_atomic},
       {"traced_warps", m.traced_warps}, {"total_warps", m.total_warps}};
}

void from_json(const json& j, access_stats& m) {
  j.at("global_load").get_to(m.global_load);
  j.at("global_store").get_to(m.global_store);
  j.at("shared_load").get_to(m.shared_load);
  j.at("shared_store").get_to(m.shared_store);
  // Atomics came with ABI 3; results written before them have none.
  if (j.contains("global_atomic")) j.at("global_atomic").get_to(m.global_atomic);
  if (j.contains("shared_atomic")) j.at("shared_atomic").get_to(m.shared_atomic);
  j.at("traced_warps").get_to(m.traced_warps);
  j.at("total_warps").get_to(m.total_warps);
}

}  // namespace cudalab

namespace cudalab::host {
namespace {

// Every failure, in the enum's order (failure_name and failure_of both go through it).
constexpr result_failure all_failures[] = {result_failure::none,
                                           result_failure::wrong_output,
                                           result_failure::input_changed,
                                           result_failure::wrong_after_timing,
                                           result_failure::timed_out,
                                           result_failure::crashed,
                                           result_failure::cuda_error,
                                           result_failure::lab_error,
                                           result_failure::submission_not_loaded,
                                           result_failure::nothing_to_measure,
                                           result_failure::not_run};

result_failure failure_of(const std::string& name) {
  for (const result_failure f : all_failures)
    if (name == failure_name(f)) return f;
  throw result_parse_error("unknown result failure '" + name + "'");
}

// Results written before the failure was recorded: the nearest failure their status allows.
result_failure failure_of_status(result_status s) {
  switch (s) {
    case result_status::ok:
      return result_failure::none;
    case result_status::verify_failed:
      return result_failure::wrong_output;
    case result_status::error:
      return result_failure::lab_error;
    case result_status::skipped:
      return result_failure::not_run;
  }
  return result_failure::none;
}

result_status status_of(const std::string& name) {
  for (const result_status s :
       {result_status::ok, result_status::verify_failed, result_status::error, result_status::skipped})
    if (name == status_name(s)) return s;
  throw result_parse_error("unknown result status '" + name + "'");
}

// Runs `read` on the parsed text, turning every JSON or schema failure into result_parse_error that
// starts with `what` ("not a cudalab result line").
template <typename Read>
auto parse_with(const std::string& text, Read read, const char* what = "not a cudalab result line") {
  try {
    return read(json::parse(text));
  } catch (const json::exception& e) {
    throw result_parse_error(std::string(what) + ": " + e.what());
  } catch (const std::logic_error& e) {  // std::stoi on a bad compute capability
    throw result_parse_error(std::string(what) + ": " + e.what());
  }
}

}  // namespace

void to_json(json& j, const ceilings& c) {
  j = {{"d2d_copy_gbps", c.d2d_copy_gbps},
       {"h2d_gbps", c.h2d_gbps},
       {"d2h_gbps", c.d2h_gbps},
       {"bidir_gbps", c.bidir_gbps},
       {"l2_copy_gbps", c.l2_copy_gbps}};
}

void from_json(const json& j, ceilings& c) {
  c.d2d_copy_gbps = real(j, "d2d_copy_gbps");
  c.h2d_gbps = real(j, "h2d_gbps");
  c.d2h_gbps = real(j, "d2h_gbps");
  c.bidir_gbps = real(j, "bidir_gbps");
  // Measured from results schema 2's later files on; files written before have none (0: not measured).
  c.l2_copy_gbps = j.contains("l2_copy_gbps") ? real(j, "l2_copy_gbps") : 0.0;
}

void to_json(json& j, const nvml_status& s) {
  j = {{"available", s.available}, {"library", s.library}, {"reason", s.reason}, {"driver_version", s.driver_version}};
}

void from_json(const json& j, nvml_status& s) {
  j.at("available").get_to(s.available);
  get_text(j, "library", s.library);
  get_text(j, "reason", s.reason);
  get_text(j, "driver_version", s.driver_version);
}

namespace {

// A sample's values but its time, each under its key (null when NVML could not give it): the writer and
// the reader go through the same list. The reasons' names are written beside their bits, not read.
template <typename Sample, typename Visit>
void sample_values(Sample& s, Visit visit) {
  visit("clocks_event_reasons_mask", s.clocks_event_reasons);
  visit("sm_clock_mhz", s.sm_clock_mhz);
  visit("max_sm_clock_mhz", s.max_sm_clock_mhz);
  visit("applications_sm_clock_mhz", s.applications_sm_clock_mhz);
  visit("memory_clock_mhz", s.memory_clock_mhz);
  visit("max_memory_clock_mhz", s.max_memory_clock_mhz);
  visit("applications_memory_clock_mhz", s.applications_memory_clock_mhz);
  visit("power_w", s.power_w);
  visit("power_limit_w", s.power_limit_w);
  visit("temperature_c", s.temperature_c);
  visit("performance_state", s.performance_state);
  visit("power_violation_ns", s.power_violation_ns);
  visit("thermal_violation_ns", s.thermal_violation_ns);
}

}  // namespace

void to_json(json& j, const gpu_sample& s) {
  const std::time_t seconds = std::time_t(s.taken_at_ms / 1000);
  const auto& reasons = s.clocks_event_reasons;
  j = {{"taken_at", utc_text(seconds, "%Y-%m-%dT%H:%M:%S") + fmt::format(".{:03}Z", s.taken_at_ms % 1000)},
       {"taken_at_ms", s.taken_at_ms},
       {"clocks_event_reasons", reasons ? json(clocks_event_reason_names(*reasons)) : json(nullptr)}};
  sample_values(s, [&](const char* key, const auto& value) { j[key] = maybe(value); });
}

void from_json(const json& j, gpu_sample& s) {
  j.at("taken_at_ms").get_to(s.taken_at_ms);
  sample_values(s, [&](const char* key, auto& value) { get_maybe(j, key, value); });
}

void to_json(json& j, const throttling& t) {
  j = {{"throttled", t.throttled},
       {"between_s", t.between_s},
       {"power_violation_s", maybe(t.power_violation_s)},
       {"thermal_violation_s", maybe(t.thermal_violation_s)},
       {"slowdown_reasons", t.slowdown_reasons},
       {"warning", t.warning}};
}

void from_json(const json& j, throttling& t) {
  j.at("throttled").get_to(t.throttled);
  j.at("between_s").get_to(t.between_s);
  get_maybe(j, "power_violation_s", t.power_violation_s);
  get_maybe(j, "thermal_violation_s", t.thermal_violation_s);
  j.at("slowdown_reasons").get_to(t.slowdown_reasons);
  get_text(j, "warning", t.warning);
}

void to_json(json& j, const gpu_state& g) {
  j = {{"pci_bus_id", g.pci_bus_id},
       {"unavailable", g.unavailable.empty() ? json(nullptr) : json(g.unavailable)},
       {"start", maybe(g.start)},
       {"end", maybe(g.end)},
       {"throttling", g.throttle}};
}

void from_json(const json& j, gpu_state& g) {
  get_text(j, "pci_bus_id", g.pci_bus_id);
  get_text(j, "unavailable", g.unavailable);
  get_maybe(j, "start", g.start);
  get_maybe(j, "end", g.end);
  g.throttle = {};
  if (j.contains("throttling")) j.at("throttling").get_to(g.throttle);
}

void to_json(json& j, const lab_description& l) {
  json params = json::object(), sweep = json::object(), spacing = json::object(), measure = json::object();
  for (const auto& [k, v] : l.params) params[k] = v;
  for (const auto& [k, values] : l.sweep) sweep[k] = values;
  for (const auto& [k, v] : l.sweep_spacing) spacing[k] = v;
  for (const auto& [k, v] : l.measure) measure[k] = v;
  j = {{"file", l.file}, {"plugin", l.plugin},       {"title", l.title},   {"params", params},
       {"sweep", sweep}, {"sweep_spacing", spacing}, {"measure", measure}, {"variants", l.variants}};
  if (!l.sweep_zip.empty()) j["sweep_zip"] = l.sweep_zip;  // only where a lab file zips axes
  if (!l.about.empty()) j["about"] = l.about;
  if (l.lesson != "time") j["lesson"] = l.lesson;  // only where a lab file says its lesson is traffic
}

void from_json(const json& j, lab_description& l) {
  j.at("file").get_to(l.file);
  j.at("plugin").get_to(l.plugin);
  j.at("title").get_to(l.title);
  for (const auto& [k, v] : j.at("params").items()) l.params.emplace_back(k, v.get<std::string>());
  for (const auto& [k, v] : j.at("sweep").items()) l.sweep.emplace_back(k, v.get<std::vector<std::string>>());
  if (j.contains("sweep_spacing"))  // from schema 2's files on; earlier ones' plots guess from the values
    for (const auto& [k, v] : j.at("sweep_spacing").items()) l.sweep_spacing.emplace_back(k, v.get<std::string>());
  if (j.contains("sweep_zip")) j.at("sweep_zip").get_to(l.sweep_zip);  // absent: no zipped axes
  for (const auto& [k, v] : j.at("measure").items()) l.measure.emplace_back(k, v.get<std::string>());
  j.at("variants").get_to(l.variants);
  get_text(j, "about", l.about);                              // written only when the lab file has a leading comment
  if (j.contains("lesson")) j.at("lesson").get_to(l.lesson);  // likewise: "time" when absent
}

namespace {

// Seconds of the schedule to the millisecond: the steady clock's nanoseconds say nothing more.
double to_ms(double s) { return std::round(s * 1e3) / 1e3; }

}  // namespace

void to_json(json& j, const scheduled_job& s) {
  j = {{"lab_file", s.lab_file},
       {"first_point", s.first_point},
       {"last_point", s.last_point},
       {"device", s.device},
       {"alone", s.alone},
       {"start_s", to_ms(s.start_s)},
       {"duration_s", to_ms(s.duration_s)}};
}

void from_json(const json& j, scheduled_job& s) {
  j.at("lab_file").get_to(s.lab_file);
  j.at("first_point").get_to(s.first_point);
  j.at("last_point").get_to(s.last_point);
  j.at("device").get_to(s.device);
  j.at("alone").get_to(s.alone);
  j.at("start_s").get_to(s.start_s);
  j.at("duration_s").get_to(s.duration_s);
}

void to_json(json& j, const run_schedule& s) {
  j = {{"probe_s", to_ms(s.probe_s)}, {"end_s", to_ms(s.end_s)}, {"jobs", s.jobs}};
}

void from_json(const json& j, run_schedule& s) {
  j.at("probe_s").get_to(s.probe_s);
  j.at("end_s").get_to(s.end_s);
  j.at("jobs").get_to(s.jobs);
}

void to_json(json& j, const run_context& c) {
  j = {{"schema_version", results_schema_version},
       {"cudalab_version", c.cudalab_version},
       {"git_revision", c.git_revision},
       {"cuda_toolkit", c.cuda_toolkit},
       {"cuda_architectures", c.cuda_architectures},
       {"cuda_runtime", c.cuda_runtime},
       {"cuda_driver", c.cuda_driver},
       {"hostname", c.hostname},
       {"started_at", c.started_at},
       {"command_line", c.command_line},
       {"profile", c.profile},
       {"device", c.device},
       {"sm_clock_mhz", c.sm_clock_mhz},
       {"ceilings", c.measured},
       {"nvml", c.nvml},
       {"gpu_state", c.gpu},
       {"labs", c.labs}};
  if (!c.counters.empty()) j["counters"] = c.counters;  // run --profile only
  if (!c.devices.empty()) {
    json all = json::array();
    for (const run_device& d : c.devices)
      all.push_back({{"ordinal", d.ordinal}, {"device", d.device}, {"ceilings", d.measured}, {"gpu_state", d.gpu}});
    j["devices"] = all;
  }
  if (c.schedule) j["schedule"] = *c.schedule;
}

void from_json(const json& j, run_context& c) {
  if (j.contains("schema_version") && j.at("schema_version").get<int>() > results_schema_version)
    throw result_parse_error("written with results schema_version " +
                             std::to_string(j.at("schema_version").get<int>()) + ", newer than this cudalab's " +
                             std::to_string(results_schema_version));
  j.at("cudalab_version").get_to(c.cudalab_version);
  // Added after schema 1's first files: files written before have none of them.
  auto text = [&](const char* key, std::string& out) {
    if (j.contains(key)) j.at(key).get_to(out);
  };
  text("git_revision", c.git_revision);
  text("cuda_toolkit", c.cuda_toolkit);
  text("cuda_architectures", c.cuda_architectures);
  text("cuda_runtime", c.cuda_runtime);
  text("cuda_driver", c.cuda_driver);
  text("hostname", c.hostname);
  if (j.contains("sm_clock_mhz")) j.at("sm_clock_mhz").get_to(c.sm_clock_mhz);
  if (j.contains("labs")) j.at("labs").get_to(c.labs);
  j.at("started_at").get_to(c.started_at);
  j.at("command_line").get_to(c.command_line);
  j.at("profile").get_to(c.profile);
  get_text(j, "counters", c.counters);  // run --profile came with results schema 2's later files
  j.at("device").get_to(c.device);
  j.at("ceilings").get_to(c.measured);
  // NVML's samples came with results schema 2's later files; files written before have none.
  if (j.contains("nvml")) j.at("nvml").get_to(c.nvml);
  if (j.contains("gpu_state")) j.at("gpu_state").get_to(c.gpu);
  if (j.contains("devices")) {
    for (const json& d : j.at("devices")) {
      run_device one;
      d.at("ordinal").get_to(one.ordinal);
      d.at("device").get_to(one.device);
      d.at("ceilings").get_to(one.measured);
      if (d.contains("gpu_state")) d.at("gpu_state").get_to(one.gpu);
      c.devices.push_back(std::move(one));
    }
  }
  // Isolated runs' only, from results schema 2's later files on.
  if (j.contains("schedule")) c.schedule = j.at("schedule").get<run_schedule>();
}

void to_json(json& j, const measured_global& g) {
  j = {{"requests", g.requests}, {"sectors", g.sectors}, {"sectors_per_request", g.sectors_per_request()}};
}

void from_json(const json& j, measured_global& g) {
  j.at("requests").get_to(g.requests);
  j.at("sectors").get_to(g.sectors);
}

void to_json(json& j, const measured_shared& s) {
  j = {{"requests", s.requests},
       {"instructions", s.instructions},
       {"wavefronts", s.wavefronts},
       {"address_wavefronts", s.address_wavefronts},
       {"conflicts", s.conflicts},
       {"ideal_wavefronts", s.ideal_wavefronts()},
       {"address_conflicts", s.address_conflicts()},
       {"contention", s.contention()},
       {"wavefronts_per_request", s.wavefronts_per_request()},
       {"conflicts_per_request", s.address_conflicts_per_request()}};
}

void from_json(const json& j, measured_shared& s) {
  j.at("requests").get_to(s.requests);
  j.at("instructions").get_to(s.instructions);
  j.at("wavefronts").get_to(s.wavefronts);
  j.at("address_wavefronts").get_to(s.address_wavefronts);
  j.at("conflicts").get_to(s.conflicts);
}

void to_json(json& j, const measured_counters& m) {
  j = {{"kernels", m.kernels},
       {"global_load", m.global_load},
       {"global_store", m.global_store},
       {"global_atomic", m.global_atomic},
       {"shared_load", m.shared_load},
       {"shared_store", m.shared_store},
       {"shared_atomic", m.shared_atomic},
       {"dram_bytes_read", m.dram_bytes_read},
       {"dram_bytes_written", m.dram_bytes_written}};
}

void from_json(const json& j, measured_counters& m) {
  j.at("kernels").get_to(m.kernels);
  j.at("global_load").get_to(m.global_load);
  j.at("global_store").get_to(m.global_store);
  j.at("global_atomic").get_to(m.global_atomic);
  j.at("shared_load").get_to(m.shared_load);
  j.at("shared_store").get_to(m.shared_store);
  j.at("shared_atomic").get_to(m.shared_atomic);
  j.at("dram_bytes_read").get_to(m.dram_bytes_read);
  j.at("dram_bytes_written").get_to(m.dram_bytes_written);
}

void to_json(json& j, const timing& t) {
  j = {{"timed", t.timed},         {"samples", t.samples}, {"batch", t.batch},
       {"median_ms", t.median_ms}, {"min_ms", t.min_ms},   {"max_ms", t.max_ms},
       {"mean_ms", t.mean_ms},     {"cv", t.cv},           {"l2_flushed", t.l2_flushed}};
  j["repetition_ms"] = t.repetition_ms;  // a NaN is written as null, as every number
  if (t.stopped_by) j["stopped_by"] = stop_reason_name(*t.stopped_by);
  if (t.has_interval()) {
    j["interval_lo_ms"] = t.interval_lo_ms;
    j["interval_hi_ms"] = t.interval_hi_ms;
  }
  if (t.launch_bound) {
    j["launch_bound"] = true;
    j["host_inclusive_ms"] = t.host_inclusive_ms;
  }
  if (t.persisting_l2_found > 0) {
    j["persisting_l2_found"] = t.persisting_l2_found;
    j["persisting_l2_note"] = t.persisting_l2_note;
  }
  if (t.handshake_ms > 0) j["handshake_ms"] = t.handshake_ms;
  if (t.hold_timeouts > 0) j["hold_timeouts"] = t.hold_timeouts;
  if (t.held) j["held"] = true;
  if (t.graph) j["graph"] = true;
  if (!t.graph_refused.empty()) j["graph_refused"] = t.graph_refused;
}

void from_json(const json& j, timing& t) {
  j.at("timed").get_to(t.timed);
  j.at("samples").get_to(t.samples);
  j.at("batch").get_to(t.batch);
  t.median_ms = real(j, "median_ms");
  t.min_ms = real(j, "min_ms");
  t.max_ms = real(j, "max_ms");
  t.mean_ms = real(j, "mean_ms");
  t.cv = real(j, "cv");
  j.at("l2_flushed").get_to(t.l2_flushed);
  // Results written before the repetitions were kept have none: they compare on their medians alone.
  t.repetition_ms.clear();
  if (j.contains("repetition_ms"))
    for (const json& ms : j.at("repetition_ms"))
      t.repetition_ms.push_back(ms.is_null() ? std::numeric_limits<double>::quiet_NaN() : ms.get<double>());
  // Results written before the stopping rule have none of these.
  t.stopped_by.reset();
  if (j.contains("stopped_by")) {
    const std::string name = j.at("stopped_by").get<std::string>();
    t.stopped_by = parse_stop_reason(name);
    if (!t.stopped_by) throw result_parse_error("unknown stopped_by '" + name + "'");
  }
  t.interval_lo_ms = j.contains("interval_lo_ms") ? real(j, "interval_lo_ms") : 0.0;
  t.interval_hi_ms = j.contains("interval_hi_ms") ? real(j, "interval_hi_ms") : 0.0;
  t.launch_bound = j.contains("launch_bound") && j.at("launch_bound").get<bool>();
  t.host_inclusive_ms = j.contains("host_inclusive_ms") ? real(j, "host_inclusive_ms") : 0.0;
  t.persisting_l2_found = j.contains("persisting_l2_found") ? j.at("persisting_l2_found").get<std::uint64_t>() : 0;
  t.persisting_l2_note = j.contains("persisting_l2_note") ? j.at("persisting_l2_note").get<std::string>() : "";
  t.handshake_ms = j.contains("handshake_ms") ? real(j, "handshake_ms") : 0.0;
  t.hold_timeouts = j.contains("hold_timeouts") ? j.at("hold_timeouts").get<std::uint64_t>() : 0;
  t.held = j.contains("held") && j.at("held").get<bool>();
  t.graph = j.contains("graph") && j.at("graph").get<bool>();
  t.graph_refused = j.contains("graph_refused") ? j.at("graph_refused").get<std::string>() : "";
}

void to_json(json& j, const census_kernel& k) {
  j = {{"name", k.name},
       {"stream", k.stream},
       {"grid", k.grid},
       {"block", k.block},
       {"registers", k.registers},
       {"static_shared_bytes", k.static_shared_bytes},
       {"dynamic_shared_bytes", k.dynamic_shared_bytes},
       {"local_bytes_per_thread", k.local_bytes_per_thread},
       {"duration_ns", k.duration_ns},
       {"after_session", k.after_session}};
}

void from_json(const json& j, census_kernel& k) {
  j.at("name").get_to(k.name);
  j.at("stream").get_to(k.stream);
  j.at("grid").get_to(k.grid);
  j.at("block").get_to(k.block);
  j.at("registers").get_to(k.registers);
  j.at("static_shared_bytes").get_to(k.static_shared_bytes);
  j.at("dynamic_shared_bytes").get_to(k.dynamic_shared_bytes);
  j.at("local_bytes_per_thread").get_to(k.local_bytes_per_thread);
  j.at("duration_ns").get_to(k.duration_ns);
  j.at("after_session").get_to(k.after_session);
}

void to_json(json& j, const census_copy& c) {
  j = {{"kind", c.kind},
       {"bytes", c.bytes},
       {"stream", c.stream},
       {"duration_ns", c.duration_ns},
       {"after_session", c.after_session}};
}

void from_json(const json& j, census_copy& c) {
  j.at("kind").get_to(c.kind);
  j.at("bytes").get_to(c.bytes);
  j.at("stream").get_to(c.stream);
  j.at("duration_ns").get_to(c.duration_ns);
  j.at("after_session").get_to(c.after_session);
}

void to_json(json& j, const kernel_census& c) {
  if (!c.taken) {
    j = nullptr;
    return;
  }
  j = {{"unavailable", c.unavailable.empty() ? json(nullptr) : json(c.unavailable)},
       {"library", c.library},
       {"session_stream", c.session_stream},
       {"module_loading", c.module_loading},
       {"kernel_count", c.kernel_count},
       {"copy_count", c.copy_count},
       {"dropped_records", c.dropped_records},
       {"kernels", c.kernels},
       {"copies", c.copies}};
}

void from_json(const json& j, kernel_census& c) {
  c = kernel_census{};
  if (j.is_null()) return;
  c.taken = true;
  get_text(j, "unavailable", c.unavailable);
  get_text(j, "library", c.library);
  j.at("session_stream").get_to(c.session_stream);
  get_text(j, "module_loading", c.module_loading);  // results written before it: ""
  j.at("kernel_count").get_to(c.kernel_count);
  j.at("copy_count").get_to(c.copy_count);
  j.at("dropped_records").get_to(c.dropped_records);
  j.at("kernels").get_to(c.kernels);
  j.at("copies").get_to(c.copies);
}

const char* failure_name(result_failure f) {
  switch (f) {
    case result_failure::none:
      return "";
    case result_failure::wrong_output:
      return "wrong_output";
    case result_failure::input_changed:
      return "input_changed";
    case result_failure::wrong_after_timing:
      return "wrong_after_timing";
    case result_failure::timed_out:
      return "timed_out";
    case result_failure::crashed:
      return "crashed";
    case result_failure::cuda_error:
      return "cuda_error";
    case result_failure::lab_error:
      return "lab_error";
    case result_failure::submission_not_loaded:
      return "submission_not_loaded";
    case result_failure::nothing_to_measure:
      return "nothing_to_measure";
    case result_failure::not_run:
      return "not_run";
  }
  return "?";
}

void to_json(json& j, const variant_result& r) {
  json point = json::object();
  for (const auto& [k, v] : r.point) point[k] = v;
  j = {{"lab_file", r.lab_file},
       {"plugin", r.plugin},
       {"title", r.title},
       {"point_index", r.point_index},
       {"point", point},
       {"variant", r.variant},
       {"summary", r.variant_summary},
       {"baseline", r.is_baseline},
       {"status", status_name(r.status)},
       {"error", r.error},
       {"verification", r.verification},
       {"traffic", r.bytes},
       {"timing", r.time},
       {"gbps", r.gbps},
       {"pct_of_baseline", r.pct_of_baseline},
       {"pct_of_ceiling", r.pct_of_ceiling},
       {"pct_of_peak", r.pct_of_peak},
       {"model", r.has_model ? json(r.model) : json(nullptr)}};
  if (r.has_measured) {  // run --profile only; the verdict is the model's and the counters' together
    j["measured"] = r.measured;
    j["counters_verdict"] = judge_counters(r).text();
  }
  if (r.census.taken) j["census"] = r.census;  // [measure] census only
  if (r.device >= 0) j["device"] = r.device;   // --devices only
  // Every result that is not ok says why as data; one made without a failure gets its status's nearest.
  const result_failure failure = r.failure != result_failure::none ? r.failure : failure_of_status(r.status);
  if (failure != result_failure::none) j["failure"] = failure_name(failure);
}

void from_json(const json& j, variant_result& r) {
  j.at("lab_file").get_to(r.lab_file);
  j.at("plugin").get_to(r.plugin);
  j.at("title").get_to(r.title);
  j.at("point_index").get_to(r.point_index);
  for (const auto& [k, v] : j.at("point").items()) r.point.emplace_back(k, v.get<std::string>());
  j.at("variant").get_to(r.variant);
  j.at("summary").get_to(r.variant_summary);
  j.at("baseline").get_to(r.is_baseline);
  // Results written before --devices have no device.
  if (j.contains("device") && !j.at("device").is_null()) j.at("device").get_to(r.device);
  r.status = status_of(j.at("status").get<std::string>());
  j.at("error").get_to(r.error);
  // Results written before the failure was recorded have none: the nearest their status allows.
  r.failure = j.contains("failure") ? failure_of(j.at("failure").get<std::string>()) : failure_of_status(r.status);
  j.at("verification").get_to(r.verification);
  j.at("traffic").get_to(r.bytes);
  j.at("timing").get_to(r.time);
  r.gbps = real(j, "gbps");
  r.pct_of_baseline = real(j, "pct_of_baseline");
  r.pct_of_ceiling = real(j, "pct_of_ceiling");
  r.pct_of_peak = real(j, "pct_of_peak");
  const json& model = j.at("model");
  r.has_model = !model.is_null();
  if (r.has_model) model.get_to(r.model);
  // Only a run --profile whose ncu counted has them.
  r.has_measured = j.contains("measured") && !j.at("measured").is_null();
  if (r.has_measured) j.at("measured").get_to(r.measured);
  // Results without the census ([measure] census off, or written before it) have none: not taken.
  r.census = {};
  if (j.contains("census")) j.at("census").get_to(r.census);
}

std::string json_text(const json& j, int indent) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

std::string result_json(const variant_result& r) { return json_text(r); }

std::string context_json(const run_context& c, int indent) { return json_text(c, indent); }

variant_result parse_result_json(const std::string& text) {
  return parse_with(text, [](const json& j) { return j.get<variant_result>(); });
}

run_context parse_context_json(const std::string& text) {
  return parse_with(text, [](const json& j) { return j.get<run_context>(); });
}

results_line parse_results_line(const std::string& line) {
  return parse_with(line, [](const json& j) {
    results_line out;
    if (j.is_object() && j.contains("context")) {
      out.is_context = true;
      j.at("context").get_to(out.context);
    } else {
      j.get_to(out.result);
    }
    return out;
  });
}

results_document parse_results_document(const std::string& text) {
  return parse_with(
      text,
      [](const json& j) {
        results_document out;
        j.at("context").get_to(out.context);
        for (const json& r : j.at("results")) out.results.push_back(r.get<variant_result>());
        return out;
      },
      "not a cudalab results.json");
}

}  // namespace cudalab::host
