// Writing a run's results in NVBench's JSON layout. The fields are those NVBench's json_printer writes
// and its scripts read: devices[].{id,name}, benchmarks[].{name,devices,axes,states}, states[].{name,
// device,axis_values,summaries,is_skipped}, summaries[].{tag,data[{name:"value",type,value}]}, where
// NVBench writes every value as a string (int64 would not survive a JSON double).
#include "compare/nvbench_export.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <vector>

#include "compare/result_match.hpp"
#include "results/format.hpp"
#include "results/json.hpp"

namespace cudalab::host {
namespace {

using json = nlohmann::ordered_json;

json device_json(int id, const device_info& d) {
  return {{"id", id},
          {"name", d.name},
          {"sm_version", d.cc_major * 100 + d.cc_minor * 10},
          {"number_of_sms", d.sm_count},
          {"max_threads_per_sm", d.max_threads_per_sm},
          {"max_threads_per_block", d.max_threads_per_block},
          {"global_memory_size", d.global_memory_bytes},
          {"global_memory_bus_peak_clock_rate", std::int64_t(d.memory_clock_khz) * 1000},
          {"global_memory_bus_width", d.memory_bus_width_bits},
          {"global_memory_bus_bandwidth", std::int64_t(std::llround(d.peak_dram_gbps() * 1e9))},
          {"l2_cache_size", d.l2_cache_bytes},
          {"shared_memory_per_block", d.shared_memory_per_block_optin_bytes}};
}

bool is_whole_number(const std::string& s) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  std::strtoll(s.c_str(), &end, 10);
  return errno == 0 && end == s.c_str() + s.size() && s.find_first_of(" \t\n+") == std::string::npos;
}

// An axis of a benchmark: its NVBench type and its values in the order they first appear.
struct axis {
  std::string name, type;
  std::vector<std::string> values;
};

json typed_value(const axis& a, const std::string& text) {
  if (a.type == "int64") return std::strtoll(text.c_str(), nullptr, 10);
  if (a.type == "float64") return std::strtod(text.c_str(), nullptr);
  return text;
}

json axis_json(const axis& a) {
  json values = json::array();
  for (const std::string& v : a.values)
    values.push_back({{"input_string", v}, {"description", ""}, {"value", typed_value(a, v)}});
  return {{"name", a.name}, {"type", a.type}, {"flags", ""}, {"values", values}};
}

// A summary as NVBench writes one: its tag, words for people, and its value as a string.
json summary(const char* tag, const char* name, const char* hint, const char* description, double value,
             bool hidden = false) {
  json s = {{"tag", tag}, {"name", name}, {"hint", hint}, {"description", description}};
  if (hidden) s["hide"] = "Hidden by default.";
  s["data"] = json::array({{{"name", "value"}, {"type", "float64"}, {"value", fmt::format("{}", value)}}});
  return s;
}

json summaries_of(const variant_result& r) {
  const timing& t = r.time;
  const double s = 1e-3;  // NVBench's times are in seconds
  json out = json::array();
  if (!t.repetition_ms.empty()) {
    json n = {{"tag", "nv/cold/sample_size"},
              {"name", "Samples"},
              {"hint", "sample_size"},
              {"description", "Number of timed repetitions (each a mean over its launches)"}};
    n["data"] =
        json::array({{{"name", "value"}, {"type", "int64"}, {"value", std::to_string(t.repetition_ms.size())}}});
    out.push_back(n);
  }
  out.push_back(summary("nv/cold/time/gpu/min", "Min GPU Time", "duration",
                        "Fastest repetition's mean time per launch (CUDA events)", t.min_ms * s, true));
  out.push_back(summary("nv/cold/time/gpu/max", "Max GPU Time", "duration",
                        "Slowest repetition's mean time per launch (CUDA events)", t.max_ms * s, true));
  out.push_back(summary("nv/cold/time/gpu/mean", "GPU Time", "duration",
                        "Mean over the repetitions of the time per launch (CUDA events)", t.mean_ms * s));
  out.push_back(summary("nv/cold/time/gpu/stdev/absolute", "Noise", "duration",
                        "Standard deviation of the repetitions' times per launch", t.cv * t.mean_ms * s, true));
  out.push_back(summary("nv/cold/time/gpu/stdev/relative", "Noise", "percentage",
                        "Relative standard deviation of the repetitions' times per launch (cudalab's cv)", t.cv));
  out.push_back(summary("nv/cold/time/gpu/median", "Median GPU Time", "duration",
                        "Median of the repetitions' times per launch (cudalab's median_ms)", t.median_ms * s, true));
  if (r.gbps > 0) {
    out.push_back(summary("nv/cold/bw/global/bytes_per_second", "GlobalMem BW", "byte_rate",
                          "The least bytes a correct kernel reads and writes, per second of the median time",
                          r.gbps * 1e9));
    if (r.bytes.path == memory_path::device && r.pct_of_peak > 0)
      out.push_back(summary("nv/cold/bw/global/utilization", "BWUtil", "percentage",
                            "Global memory bandwidth as a fraction of the device's theoretical peak",
                            r.pct_of_peak / 100));
  }
  return out;
}

bool timed_ok(const variant_result& r) { return r.status == result_status::ok && r.time.timed; }

}  // namespace

std::string nvbench_json(const result_set& run) {
  const run_context& c = run.context;
  json root;
  json argv = json::array();
  std::istringstream words(c.command_line);  // the run kept its command line joined by spaces
  for (std::string w; words >> w;) argv.push_back(w);
  root["meta"] = {
      {"argv", argv},
      {"version", {{"json", {{"major", 1}, {"minor", 0}, {"patch", 0}, {"string", nvbench_json_version}}}}},
      {"cudalab", {{"version", c.cudalab_version}, {"started_at", c.started_at}, {"results", run.file.string()}}}};
  json devices = json::array();
  if (c.devices.empty()) devices.push_back(device_json(c.device.ordinal, c.device));
  for (const run_device& d : c.devices) devices.push_back(device_json(d.ordinal, d.device));
  root["devices"] = devices;

  // A benchmark per lab file, named as compare matches it, in the order the lab files first appear.
  const std::vector<result_key> keys = keys_of(run.results);
  std::vector<std::string> labels;
  std::map<std::string, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < run.results.size(); ++i) {
    const std::string label = lab_file_label(keys[i]);
    if (!members.count(label)) labels.push_back(label);
    members[label].push_back(i);
  }
  json benchmarks = json::array();
  for (const std::string& label : labels) {
    const std::vector<std::size_t>& rows = members[label];
    std::vector<const variant_result*> results;
    for (std::size_t i : rows) results.push_back(&run.results[i]);
    const std::vector<std::string> swept = swept_names(results);
    const bool clash = std::find(swept.begin(), swept.end(), "variant") != swept.end();
    axis variants{clash ? "cudalab_variant" : "variant", "string", {}};
    std::vector<axis> axes;
    for (const std::string& name : swept) axes.push_back(axis{name, "", {}});
    std::vector<int> device_ids;
    for (const variant_result* r : results) {
      if (std::find(variants.values.begin(), variants.values.end(), r->variant) == variants.values.end())
        variants.values.push_back(r->variant);
      for (axis& a : axes) {
        const std::string v = point_value(*r, a.name);
        if (std::find(a.values.begin(), a.values.end(), v) == a.values.end()) a.values.push_back(v);
      }
      const int id = r->device >= 0 ? r->device : c.device.ordinal;
      if (std::find(device_ids.begin(), device_ids.end(), id) == device_ids.end()) device_ids.push_back(id);
    }
    for (axis& a : axes) {
      const bool whole = std::all_of(a.values.begin(), a.values.end(), is_whole_number);
      const bool numbers =
          std::all_of(a.values.begin(), a.values.end(), [](const std::string& v) { return number_in(v).has_value(); });
      a.type = whole ? "int64" : numbers ? "float64" : "string";
    }

    json axes_json = json::array({axis_json(variants)});
    for (const axis& a : axes) axes_json.push_back(axis_json(a));
    json states = json::array();
    for (const variant_result* r : results) {
      const int id = r->device >= 0 ? r->device : c.device.ordinal;
      std::string name = fmt::format("Device={} {}={}", id, variants.name, r->variant);
      json axis_values = json::array({{{"name", variants.name}, {"type", "string"}, {"value", r->variant}}});
      for (const axis& a : axes) {
        const std::string v = point_value(*r, a.name);
        name += " " + a.name + "=" + v;
        axis_values.push_back({{"name", a.name}, {"type", a.type}, {"value", v}});
      }
      json st = {{"name", name}, {"device", id}, {"type_config_index", 0}, {"axis_values", axis_values}};
      const bool timed = timed_ok(*r);
      st["summaries"] = timed ? summaries_of(*r) : json::array();
      st["is_skipped"] = !timed;
      if (!timed)
        st["skip_reason"] = r->status == result_status::ok
                                ? std::string("not timed (verified only)")
                                : std::string(status_name(r->status)) + ": " + failure_text(*r);
      states.push_back(st);
    }
    benchmarks.push_back({{"name", label},
                          {"index", benchmarks.size()},
                          {"devices", device_ids},
                          {"axes", axes_json},
                          {"states", states}});
  }
  root["benchmarks"] = benchmarks;
  return json_text(root, 2) + "\n";
}

}  // namespace cudalab::host
