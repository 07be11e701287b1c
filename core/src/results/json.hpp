// Reading results back from their JSON (the schema of result_json/context_json): how a child process
// of an isolated run hands its results to the parent, line by line.
#pragma once

#include <stdexcept>
#include <string>

#include "results/result.hpp"
#include "results/run_context.hpp"

namespace cudalab::host {

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

/// One line of a results.jsonl stream: the context line ({"context": ...}) or a result.
struct results_line {
  bool is_context = false;
  run_context context;     ///< when is_context
  variant_result result;   ///< otherwise
};

/// Parses one line of results.jsonl. Throws result_parse_error.
results_line parse_results_line(const std::string& line);

}  // namespace cudalab::host
