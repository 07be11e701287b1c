// The results JSON schema, written and read back in one place: each field's writer beside its reader
// (nlohmann's to_json/from_json pairs). results.jsonl, results.json, the children of an isolated run
// and `cudalab device --format json` all use it; docs/results.md describes the fields.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "cudalab/access_stats.hpp"
#include "cudalab/device_info.hpp"
#include "cudalab/lab.hpp"
#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab {

/// cudalab's own types as results carry them. from_json throws nlohmann's exceptions, or
/// host::result_parse_error for a compute capability that is not MAJOR.MINOR; peak_dram_gbps is
/// written, not read.
void to_json(nlohmann::ordered_json& j, const device_info& d);
void from_json(const nlohmann::ordered_json& j, device_info& d);
void to_json(nlohmann::ordered_json& j, const verification& c);
void from_json(const nlohmann::ordered_json& j, verification& c);
void to_json(nlohmann::ordered_json& j, const traffic& t);
void from_json(const nlohmann::ordered_json& j, traffic& t);
void to_json(nlohmann::ordered_json& j, const global_totals& g);
void from_json(const nlohmann::ordered_json& j, global_totals& g);
void to_json(nlohmann::ordered_json& j, const shared_totals& s);
void from_json(const nlohmann::ordered_json& j, shared_totals& s);
void to_json(nlohmann::ordered_json& j, const access_stats& m);
void from_json(const nlohmann::ordered_json& j, access_stats& m);

}  // namespace cudalab

namespace cudalab::host {

/// Raised when a field is renamed or removed or changes meaning (adding fields keeps it); docs/results.md.
/// 2: results.jsonl holds results only, the context is context.json of its own.
inline constexpr int results_schema_version = 2;

/// The schema's objects. Numbers that are not finite are written as null and read back as NaN;
/// derived numbers and texts (sectors_per_request, conflicts, a sample's taken_at and reason names,
/// the counters' verdict, ...) are written, not read. What NVML could not give (an empty optional) is written as null.
void to_json(nlohmann::ordered_json& j, const ceilings& c);
void from_json(const nlohmann::ordered_json& j, ceilings& c);
void to_json(nlohmann::ordered_json& j, const nvml_status& s);
void from_json(const nlohmann::ordered_json& j, nvml_status& s);
void to_json(nlohmann::ordered_json& j, const gpu_sample& s);
void from_json(const nlohmann::ordered_json& j, gpu_sample& s);
void to_json(nlohmann::ordered_json& j, const throttling& t);
void from_json(const nlohmann::ordered_json& j, throttling& t);
void to_json(nlohmann::ordered_json& j, const gpu_state& g);
void from_json(const nlohmann::ordered_json& j, gpu_state& g);
void to_json(nlohmann::ordered_json& j, const lab_description& l);
void from_json(const nlohmann::ordered_json& j, lab_description& l);
void to_json(nlohmann::ordered_json& j, const scheduled_job& s);
void from_json(const nlohmann::ordered_json& j, scheduled_job& s);
void to_json(nlohmann::ordered_json& j, const run_schedule& s);
void from_json(const nlohmann::ordered_json& j, run_schedule& s);
void to_json(nlohmann::ordered_json& j, const run_context& c);
void from_json(const nlohmann::ordered_json& j, run_context& c);
void to_json(nlohmann::ordered_json& j, const measured_global& g);
void from_json(const nlohmann::ordered_json& j, measured_global& g);
void to_json(nlohmann::ordered_json& j, const measured_shared& s);
void from_json(const nlohmann::ordered_json& j, measured_shared& s);
void to_json(nlohmann::ordered_json& j, const measured_counters& m);
void from_json(const nlohmann::ordered_json& j, measured_counters& m);
void to_json(nlohmann::ordered_json& j, const timing& t);
void from_json(const nlohmann::ordered_json& j, timing& t);
void to_json(nlohmann::ordered_json& j, const census_kernel& k);
void from_json(const nlohmann::ordered_json& j, census_kernel& k);
void to_json(nlohmann::ordered_json& j, const census_copy& c);
void from_json(const nlohmann::ordered_json& j, census_copy& c);
/// A census not taken is null (a result leaves it out); an unavailable one has its reason in "unavailable"
/// (null when it was taken).
void to_json(nlohmann::ordered_json& j, const kernel_census& c);
void from_json(const nlohmann::ordered_json& j, kernel_census& c);
void to_json(nlohmann::ordered_json& j, const variant_result& r);
void from_json(const nlohmann::ordered_json& j, variant_result& r);

/// JSON text of a value on one line (indent < 0) or indented. Text from plugins and the CUDA runtime
/// may hold bytes that are not UTF-8; they become U+FFFD rather than an exception in the middle of a run.
std::string json_text(const nlohmann::ordered_json& j, int indent = -1);

/// JSON text of one result (a line of results.jsonl) / of the context (context.json, indented by
/// `indent`; -1: one line, as the first line a child of an isolated run sends).
std::string result_json(const variant_result& result);
std::string context_json(const run_context& context, int indent = -1);

/// A JSON text that is not a result or context of the schema result_json/context_json write.
class result_parse_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The result whose result_json() is `json`: result_json(parse_result_json(result_json(r))) ==
/// result_json(r) (null numbers, JSON's NaN, come back as NaN). Throws result_parse_error.
variant_result parse_result_json(const std::string& json);

/// The context whose context_json() is `json` (device, ceilings; peak_dram_gbps is recomputed).
/// Throws result_parse_error.
run_context parse_context_json(const std::string& json);

/// One line of a results.jsonl stream: the context line ({"context": ...}) or a result. This is how
/// a child process of an isolated run hands its results to the parent, line by line.
struct results_line {
  bool is_context = false;
  run_context context;    ///< when is_context
  variant_result result;  ///< otherwise
};

/// Parses one line of results.jsonl. Throws result_parse_error.
results_line parse_results_line(const std::string& line);

/// A whole results.json: the run's context and its results, in run order.
struct results_document {
  run_context context;
  std::vector<variant_result> results;
};

/// Parses the text of a results.json ({"context": ..., "results": [...]}). Throws result_parse_error,
/// also for a context whose schema_version is newer than results_schema_version.
results_document parse_results_document(const std::string& json);

}  // namespace cudalab::host
