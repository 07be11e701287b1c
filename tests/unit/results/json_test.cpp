// Results read back from their JSON: every line of the golden results.jsonl survives the round trip
// result -> JSON -> result -> JSON unchanged, NaN included; contexts likewise, with their GPUs' samples,
// and contexts written before those still read; an isolated run's schedule; anything else is refused.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "results/json.hpp"

namespace cudalab::host {
namespace {

const std::filesystem::path golden = std::filesystem::path(CUDALAB_SOURCE_DIR) / "tests/fixtures/golden/results.jsonl";

TEST(ResultParse, GoldenLinesRoundTrip) {
  std::ifstream in(golden);
  ASSERT_TRUE(in) << golden;
  std::string line;
  int contexts = 0, results = 0;
  while (std::getline(in, line)) {
    const results_line parsed = parse_results_line(line);
    if (parsed.is_context) {
      ++contexts;
      EXPECT_EQ("{\"context\":" + context_json(parsed.context) + "}", line);
    } else {
      ++results;
      EXPECT_EQ(result_json(parsed.result), line);
    }
  }
  EXPECT_EQ(contexts, 0);  // a results folder's results.jsonl: results only (schema 2)
  EXPECT_GT(results, 3);
}

TEST(ResultParse, ContextComesBackWithItsLabs) {
  run_context c;
  c.cudalab_version = "0.1.0";
  c.git_revision = "0123456789ab";
  c.hostname = "gpu-box";
  c.cuda_runtime = "13.0";
  c.sm_clock_mhz = 1980;
  lab_description l;
  l.file = "labs/a.toml";
  l.plugin = "alignment";
  l.params = {{"n", "1024"}, {"block", "256"}};
  l.sweep = {{"offset", {"0", "1"}}};
  l.sweep_spacing = {{"offset", "step"}};
  l.measure = {{"seed", "2026"}};
  l.variants = {"memcpy", "offset_read"};
  c.labs = {l};
  const run_context back = parse_context_json(context_json(c));
  EXPECT_EQ(back.git_revision, "0123456789ab");
  EXPECT_EQ(back.hostname, "gpu-box");
  EXPECT_EQ(back.sm_clock_mhz, 1980);
  ASSERT_EQ(back.labs.size(), 1u);
  EXPECT_EQ(back.labs[0].params, l.params);
  EXPECT_EQ(back.labs[0].sweep, l.sweep);
  EXPECT_EQ(back.labs[0].sweep_spacing, l.sweep_spacing);
  EXPECT_EQ(back.labs[0].measure, l.measure);
  EXPECT_EQ(back.labs[0].variants, l.variants);
  EXPECT_EQ(context_json(back), context_json(c));
  EXPECT_EQ(context_json(c).find("sweep_zip"), std::string::npos);  // written only for a lab file that zips axes
}

// A lab file's zipped groups ([[sweep.zip]]) come back, for the plots to draw a group as one axis.
TEST(ResultParse, ZippedGroupsComeBack) {
  run_context c;
  lab_description l;
  l.file = "labs/z.toml";
  l.sweep = {{"fill", {"random", "ramp"}}, {"n", {"1000", "4099"}}, {"block", {"32", "128"}}};
  l.sweep_zip = {{"n", "block"}};
  c.labs = {l};
  const std::string text = context_json(c);
  EXPECT_NE(text.find("\"sweep_zip\""), std::string::npos) << text;
  const run_context back = parse_context_json(text);
  ASSERT_EQ(back.labs.size(), 1u);
  EXPECT_EQ(back.labs[0].sweep_zip, l.sweep_zip);
  EXPECT_EQ(context_json(back), text);
}

// A lab file's lesson ([lab] lesson = "traffic") comes back, for the plots' totals panels; "time", the
// default, is not written.
TEST(ResultParse, ALessonOfTrafficComesBack) {
  run_context c;
  lab_description l;
  l.file = "labs/t.toml";
  c.labs = {l};
  EXPECT_EQ(context_json(c).find("lesson"), std::string::npos);
  EXPECT_EQ(parse_context_json(context_json(c)).labs.at(0).lesson, "time");
  c.labs[0].lesson = "traffic";
  const std::string text = context_json(c);
  EXPECT_NE(text.find("\"lesson\":\"traffic\""), std::string::npos) << text;
  EXPECT_EQ(parse_context_json(text).labs.at(0).lesson, "traffic");
  EXPECT_EQ(context_json(parse_context_json(text)), text);
}

// Each GPU's samples through NVML, null where NVML could not read a value, and the verdict.
TEST(ResultParse, GpuStateComesBack) {
  run_context c;
  c.nvml = {true, "libnvidia-ml.so.1", "", "580.65.06"};
  gpu_sample start;
  start.taken_at_ms = 1795348801250;
  start.sm_clock_mhz = 1980;
  start.clocks_event_reasons = 0x201;  // gpu_idle and a bit cudalab does not know
  start.power_w = 71.5;
  start.power_violation_ns = 5;
  gpu_sample end = start;
  end.taken_at_ms += 2000;
  end.thermal_violation_ns = 7;
  c.gpu = {"0000:19:00.0", "", start, end, judge_throttling(start, end, "GPU 0")};
  c.devices.resize(2);
  c.devices[0].gpu = c.gpu;
  run_device& other = c.devices[1];
  other.ordinal = 1;
  other.gpu.pci_bus_id = "0000:1a:00.0";
  other.gpu.unavailable = "NVML finds no GPU at PCI bus id 0000:1a:00.0";
  const std::string text = context_json(c);
  EXPECT_NE(text.find(R"("clocks_event_reasons":["gpu_idle","0x200"],"clocks_event_reasons_mask":513)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(R"("memory_clock_mhz":null)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("taken_at":"2026-11-22T12:00:01.250Z")"), std::string::npos) << text;
  const run_context back = parse_context_json(text);
  EXPECT_EQ(back.nvml.driver_version, "580.65.06");
  ASSERT_TRUE(back.gpu.start && back.gpu.end);
  EXPECT_EQ(back.gpu.start->clocks_event_reasons, 0x201u);
  EXPECT_FALSE(back.gpu.start->memory_clock_mhz);
  EXPECT_FALSE(back.gpu.start->thermal_violation_ns);
  EXPECT_EQ(back.gpu.end->thermal_violation_ns, 7u);
  EXPECT_FALSE(back.gpu.throttle.thermal_violation_s);  // unknown at the start: not judged
  ASSERT_EQ(back.devices.size(), 2u);
  EXPECT_EQ(back.devices[1].gpu.unavailable, other.gpu.unavailable);
  EXPECT_FALSE(back.devices[1].gpu.start);
  EXPECT_EQ(context_json(back), text);
}

// A context written before NVML's samples has none, and reads as "not asked".
TEST(ResultParse, ContextWithoutGpuStateStillReads) {
  run_context c;
  c.cudalab_version = "0.1.0";
  auto old = nlohmann::ordered_json::parse(context_json(c));
  old.erase("nvml");
  old.erase("gpu_state");
  const run_context back = parse_context_json(old.dump());
  EXPECT_FALSE(back.nvml.available);
  EXPECT_TRUE(back.gpu.pci_bus_id.empty());
  EXPECT_FALSE(back.gpu.start);
  EXPECT_FALSE(back.gpu.throttle.throttled);
}

// An isolated run's schedule: when the GPUs were ready and each job on its GPU, times to the millisecond;
// a context without one (a run in one process, or written before) has none.
TEST(ResultParse, ScheduleComesBack) {
  run_context c;
  c.cudalab_version = "0.1.0";
  EXPECT_EQ(context_json(c).find("schedule"), std::string::npos);
  EXPECT_FALSE(parse_context_json(context_json(c)).schedule);
  run_schedule s;
  s.probe_s = 6.1234567;
  s.end_s = 282.5;
  s.jobs.push_back({"labs/a.toml", 0, 16, 1, false, 6.2, 130.25});
  s.jobs.push_back({"labs/mapped_pinned.toml", 0, 0, 0, true, 6.125, 4.5});
  c.schedule = s;
  const std::string text = context_json(c);
  EXPECT_NE(text.find(R"("schedule":{"probe_s":6.123,"end_s":282.5,"jobs":[{"lab_file":"labs/a.toml","first_point":0,)"
                      R"("last_point":16,"device":1,"alone":false,"start_s":6.2,"duration_s":130.25})"),
            std::string::npos)
      << text;
  const run_context back = parse_context_json(text);
  ASSERT_TRUE(back.schedule);
  EXPECT_EQ(back.schedule->probe_s, 6.123);
  ASSERT_EQ(back.schedule->jobs.size(), 2u);
  EXPECT_EQ(back.schedule->jobs[1].lab_file, "labs/mapped_pinned.toml");
  EXPECT_TRUE(back.schedule->jobs[1].alone);
  EXPECT_EQ(back.schedule->jobs[1].device, 0);
  EXPECT_EQ(back.schedule->jobs[0].last_point, 16u);
  EXPECT_EQ(context_json(back), text);
}

// The L2 copy ceiling comes back; a context written before it was measured reads it as 0 (not measured).
TEST(ResultParse, L2CopyCeilingComesBackAndOldContextsReadIt0) {
  run_context c;
  c.cudalab_version = "0.1.0";
  c.measured = {3000.0, 55.0, 54.0, 90.0, 7000.0};
  EXPECT_DOUBLE_EQ(parse_context_json(context_json(c)).measured.l2_copy_gbps, 7000.0);
  auto old = nlohmann::ordered_json::parse(context_json(c));
  old["ceilings"].erase("l2_copy_gbps");
  const run_context back = parse_context_json(old.dump());
  EXPECT_DOUBLE_EQ(back.measured.l2_copy_gbps, 0.0);
  EXPECT_DOUBLE_EQ(back.measured.d2d_copy_gbps, 3000.0);
}

// A kernel census comes back whole; one not taken is null; one that could not be taken keeps its reason;
// results written before the census read as not taken.
TEST(ResultParse, KernelCensusComesBack) {
  variant_result r;
  r.variant = "student:reduce_sum";
  r.census.taken = true;
  r.census.library = "libcupti.so.13";
  r.census.session_stream = 13;
  r.census.kernel_count = 2;
  r.census.copy_count = 1;
  census_kernel k;
  k.name = "partial_sums(float const*, unsigned long long, float*)";
  k.stream = 13;
  k.grid = {528, 1, 1};
  k.block = {256, 1, 1};
  k.registers = 18;
  k.static_shared_bytes = 32;
  k.dynamic_shared_bytes = 0;
  k.local_bytes_per_thread = 8;
  k.duration_ns = 345000;
  r.census.kernels = {k, k};
  r.census.kernels[1].after_session = true;
  census_copy c;
  c.kind = "D2H";
  c.bytes = 4;
  c.stream = 21;
  c.duration_ns = 2000;
  r.census.copies = {c};
  r.census.dropped_records = 3;
  const std::string text = result_json(r);
  const variant_result back = parse_result_json(text);
  EXPECT_EQ(result_json(back), text);
  ASSERT_TRUE(back.census.available());
  ASSERT_EQ(back.census.kernels.size(), 2u);
  EXPECT_EQ(back.census.kernels[0].name, k.name);
  EXPECT_EQ(back.census.kernels[0].grid[0], 528);
  EXPECT_EQ(back.census.kernels[0].local_bytes_per_thread, 8u);
  EXPECT_TRUE(back.census.kernels[1].after_session);
  EXPECT_EQ(back.census.copies.at(0).kind, "D2H");
  EXPECT_EQ(back.census.dropped_records, 3u);

  variant_result none;
  EXPECT_FALSE(nlohmann::json::parse(result_json(none)).contains("census"));
  EXPECT_FALSE(parse_result_json(result_json(none)).census.taken);
  none.census = unavailable_census("CUPTI cannot be loaded");
  const variant_result why = parse_result_json(result_json(none));
  EXPECT_TRUE(why.census.taken);
  EXPECT_FALSE(why.census.available());
  EXPECT_EQ(why.census.unavailable, "CUPTI cannot be loaded");
  auto old = nlohmann::ordered_json::parse(result_json(r));
  old.erase("census");
  EXPECT_FALSE(parse_result_json(old.dump()).census.taken);
}

// Outcomes as data (review 2026-11-26-aesthetics F1): each failure is written and read back by name; a
// result written before failures were recorded gets its status's nearest; an unknown name is refused.
TEST(ResultParse, aesthetics_f1_failures_round_trip_and_old_results_get_their_status_nearest) {
  for (const result_failure f :
       {result_failure::wrong_output, result_failure::input_changed, result_failure::wrong_after_timing,
        result_failure::timed_out, result_failure::crashed, result_failure::cuda_error, result_failure::lab_error,
        result_failure::submission_not_loaded, result_failure::nothing_to_measure, result_failure::not_run}) {
    variant_result r;
    r.status = result_status::error;
    r.failure = f;
    EXPECT_EQ(parse_result_json(result_json(r)).failure, f) << failure_name(f);
  }
  variant_result ok;
  EXPECT_EQ(result_json(ok).find("failure"), std::string::npos);  // ok results are as they were
  nlohmann::json old = nlohmann::json::parse(result_json(ok));
  old["status"] = "verify_failed";
  EXPECT_EQ(parse_result_json(old.dump()).failure, result_failure::wrong_output);
  old["status"] = "error";
  EXPECT_EQ(parse_result_json(old.dump()).failure, result_failure::lab_error);
  old["failure"] = "took_too_long";
  EXPECT_THROW(parse_result_json(old.dump()), result_parse_error);
}

TEST(ResultParse, FieldsComeBack) {
  variant_result r;
  r.lab_file = "labs/x.toml";
  r.plugin = "testlab";
  r.point_index = 3;
  r.point = {{"n", "1024"}, {"block", "128"}};  // axis order is kept, not sorted
  r.variant = "copy";
  r.status = result_status::error;
  r.error = "the child process running this lab file killed by signal SIGSEGV (Segmentation fault)";
  r.verification.max_rel_error = std::numeric_limits<double>::quiet_NaN();
  r.verification.first_mismatches = {"[0] got 1, expected 2"};
  r.bytes = {100, 200, memory_path::host_bus};
  r.time.timed = true;
  r.time.median_ms = 0.125;
  r.gbps = 2.4;
  r.has_model = true;
  r.model.shared_load.requests = 7;
  r.model.shared_load.wavefronts = 9;
  r.model.shared_load.ideal_wavefronts = 7;
  const variant_result back = parse_result_json(result_json(r));
  EXPECT_EQ(back.point, r.point);
  EXPECT_EQ(back.point_index, 3u);
  EXPECT_EQ(back.status, result_status::error);
  EXPECT_EQ(back.error, r.error);
  EXPECT_TRUE(std::isnan(back.verification.max_rel_error));
  EXPECT_EQ(back.verification.first_mismatches, r.verification.first_mismatches);
  EXPECT_EQ(back.bytes.path, memory_path::host_bus);
  EXPECT_EQ(back.bytes.total(), 300u);
  EXPECT_DOUBLE_EQ(back.time.median_ms, 0.125);
  EXPECT_TRUE(back.has_model);
  EXPECT_EQ(back.model.shared_load.conflicts(), 2u);
  EXPECT_EQ(result_json(back), result_json(r));
}

TEST(ResultParse, RepetitionTimesComeBack) {
  variant_result r;
  r.time.timed = true;
  r.time.repetition_ms = {0.25, 0.5, std::numeric_limits<double>::quiet_NaN(), 0.125};  // in the order they ran
  const std::string line = result_json(r);
  EXPECT_NE(line.find("\"repetition_ms\":[0.25,0.5,null,0.125]"), std::string::npos) << line;
  const variant_result back = parse_result_json(line);
  ASSERT_EQ(back.time.repetition_ms.size(), 4u);
  EXPECT_DOUBLE_EQ(back.time.repetition_ms[1], 0.5);
  EXPECT_TRUE(std::isnan(back.time.repetition_ms[2]));
  EXPECT_EQ(result_json(back), line);
}

TEST(ResultParse, ResultsWithoutRepetitionTimesStillRead) {
  // Written before timing.repetition_ms was kept: read with none.
  std::string line = result_json(variant_result{});
  const std::string field = ",\"repetition_ms\":[]";
  ASSERT_NE(line.find(field), std::string::npos) << line;
  line.erase(line.find(field), field.size());
  EXPECT_TRUE(parse_result_json(line).time.repetition_ms.empty());
}

TEST(ResultParse, RefusesWhatIsNotAResult) {
  EXPECT_THROW(parse_results_line("not json"), result_parse_error);
  EXPECT_THROW(parse_results_line("{\"lab_file\": 3}"), result_parse_error);
  EXPECT_THROW(parse_results_line("[]"), result_parse_error);
  std::string line = result_json(variant_result{});
  line.replace(line.find("\"ok\""), 4, "\"fine\"");
  EXPECT_THROW(parse_result_json(line), result_parse_error);
}

}  // namespace
}  // namespace cudalab::host
