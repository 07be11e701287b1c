// Reading a run's results back: which file of a results folder, and each read through results/json.hpp.
#include "results/result_set.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <system_error>

#include "results/json.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

// The whole of `file`, which must be a regular file (a FIFO would block, a device never end) of at
// most max_results_file_bytes (a huge file would take the memory with it), however it grows meanwhile.
std::string read_whole(const fs::path& file) {
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec || !fs::exists(st)) throw result_set_error(file.string() + ": no such file or folder");
  if (!fs::is_regular_file(st)) throw result_set_error(file.string() + ": not a regular file");
  const auto too_large = [&] {
    return result_set_error(fmt::format("{}: larger than the {} MiB cudalab reads as results (not a run's results?)",
                                        file.string(), max_results_file_bytes >> 20));
  };
  if (fs::file_size(file, ec) > max_results_file_bytes && !ec) throw too_large();
  std::ifstream in(file, std::ios::binary);
  if (!in) throw result_set_error(file.string() + ": cannot be opened for reading");
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, std::size_t(in.gcount()));
    if (text.size() > max_results_file_bytes) throw too_large();
  }
  if (in.bad()) throw result_set_error(file.string() + ": cannot be read");
  return text;
}

result_set read_json_file(const fs::path& file) {
  result_set set;
  set.file = file;
  try {
    results_document doc = parse_results_document(read_whole(file));
    set.context = std::move(doc.context);
    set.results = std::move(doc.results);
  } catch (const result_parse_error& e) {
    throw result_set_error(file.string() + ": " + e.what());
  }
  return set;
}

// results.jsonl: a result per line, its context in context.json beside it (schema 2; a schema-1 file
// has the context as its first line instead); a run cut short may end in a part of a line, which is
// left out (what the crash lost), as are blank lines.
result_set read_jsonl_file(const fs::path& file) {
  result_set set;
  set.file = file;
  std::istringstream in(read_whole(file));
  std::string line;
  bool has_context = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const bool last = in.eof();
    try {
      results_line parsed = parse_results_line(line);
      if (parsed.is_context) {
        set.context = std::move(parsed.context);
        has_context = true;
      } else {
        set.results.push_back(std::move(parsed.result));
      }
    } catch (const result_parse_error& e) {
      if (last && number > 1) break;  // the unfinished last line of an interrupted run
      throw result_set_error(file.string() + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  if (!has_context) {
    const fs::path beside = file.parent_path() / "context.json";
    std::error_code ec;
    if (!fs::exists(beside, ec))
      throw result_set_error(file.string() + ": no context: neither a context line nor a context.json beside it");
    try {
      set.context = parse_context_json(read_whole(beside));
    } catch (const result_parse_error& e) {
      throw result_set_error(beside.string() + ": " + e.what());
    }
  }
  return set;
}

}  // namespace

result_set read_result_set(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    if (fs::exists(path / "results.json", ec)) return read_json_file(path / "results.json");
    if (fs::exists(path / "results.jsonl", ec)) return read_jsonl_file(path / "results.jsonl");
    throw result_set_error(path.string() + ": not a results folder (it has no results.json or results.jsonl)");
  }
  return path.extension() == ".jsonl" ? read_jsonl_file(path) : read_json_file(path);
}

void check_result_times(const result_set& set) {
  for (std::size_t i = 0; i < set.results.size(); ++i) {
    const variant_result& r = set.results[i];
    if (!r.time.timed) continue;
    const auto check = [&](const std::string& name, double ms) {
      if (ms > 0 && std::isfinite(ms)) return;
      throw result_set_error(fmt::format(
          "{}: result {} ({}, variant {}): timing.{} = {} is no time (a positive, finite number of milliseconds)",
          set.file.string(), i + 1, r.lab_file, r.variant, name, ms));
    };
    check("median_ms", r.time.median_ms);
    check("min_ms", r.time.min_ms);
    check("max_ms", r.time.max_ms);
    check("mean_ms", r.time.mean_ms);
    for (std::size_t k = 0; k < r.time.repetition_ms.size(); ++k)
      check(fmt::format("repetition_ms[{}]", k), r.time.repetition_ms[k]);
  }
}

}  // namespace cudalab::host
