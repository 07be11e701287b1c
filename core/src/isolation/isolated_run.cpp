// Isolated runs: each lab file, or each variant at each point, in a child process of its own whose
// results come back over a pipe; a crash, a sticky CUDA error or a timeout costs only that unit.
#include "isolation/isolated_run.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "exit_codes.hpp"
#include "isolation/child_process.hpp"
#include "plugin/spec_lookup.hpp"
#include "results/format.hpp"
#include "results/json.hpp"

namespace cudalab::host {

std::vector<isolation_unit> isolation_units(const std::vector<planned_lab>& plans, isolation_mode mode,
                                            const std::vector<std::string>& variant_filter) {
  std::vector<isolation_unit> units;
  for (const planned_lab& pl : plans) {
    const std::vector<std::string> names = variants_to_run(pl.plan, variant_filter);
    isolation_unit whole;
    whole.lab = &pl;
    for (std::uint64_t p = 0; p < pl.plan.point_count(); ++p) {
      for (const std::string& v : names) {
        if (mode == isolation_mode::variant) {
          isolation_unit one;
          one.lab = &pl;
          one.one_variant = true;
          one.point = p;
          one.variant = v;
          one.expected = {{p, v}};
          units.push_back(std::move(one));
        } else {
          whole.expected.emplace_back(p, v);
        }
      }
    }
    if (mode != isolation_mode::variant) units.push_back(std::move(whole));
  }
  return units;
}

namespace {

// A result the child never sent, filled in from the plan.
variant_result missing_result(const isolation_unit& unit, std::uint64_t point, const std::string& variant,
                              result_status status, std::string why) {
  const planned_lab& pl = *unit.lab;
  variant_result r = point_result(pl, point);
  r.variant = variant;
  try {
    r.variant_summary = pl.plugin->spec.variants.at(variant_of(pl.plugin->spec, variant)).summary;
  } catch (const std::out_of_range&) {
  }
  r.is_baseline = variant == pl.plan.baseline;
  r.status = status;
  r.error = std::move(why);
  return r;
}

std::string exit_meaning(int code) {
  switch (code) {
    case exit_internal:
      return "internal error";
    case exit_bad_lab_file:
      return "bad lab file";
    case exit_plugin:
      return "plugin load failure";
    case exit_no_gpu:
      return "no usable GPU";
    case exit_cuda_error:
      return "CUDA error";
    case exit_lab_error:
      return "lab error";
    default:
      return "";
  }
}

template <typename T>
bool contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// What a unit's child sent: which results, (point index, variant), and how many were errors.
struct received_results {
  std::vector<std::pair<std::uint64_t, std::string>> ids;
  std::uint64_t errors = 0;
};

// The results of `unit` its child never sent, in order, turned into rows: the first is the fault, an
// error saying what became of the child (with its last output lines), and the rest are skipped
// ("not run"); after a sticky CUDA error that the child reported itself before it exited, all are
// skipped. Empty when everything arrived.
std::vector<variant_result> missing_results(const isolation_unit& unit, const received_results& received,
                                            const child_outcome& how) {
  std::vector<std::pair<std::uint64_t, std::string>> missing;
  for (const auto& e : unit.expected)
    if (!contains(received.ids, e)) missing.push_back(e);
  const std::string what = unit.one_variant ? "variant" : "lab file";
  std::string last;
  for (const std::string& line : how.last_output) last += (last.empty() ? "" : " | ") + line;
  // A child that exited by itself after a CUDA error that poisons its context sent that error as
  // a result; what it could not run is skipped. Otherwise the first missing result is the fault.
  const bool sticky_exit = how.ended_normally() && how.exit_code == exit_cuda_error && received.errors > 0;
  std::vector<variant_result> rows;
  std::string first_text;
  for (std::size_t i = 0; i < missing.size(); ++i) {
    const auto& [point, variant] = missing[i];
    if (i == 0 && !sticky_exit) {
      std::string why = "the child process running this " + what + " " + how.describe();
      if (how.ended_normally()) {
        const std::string meaning = exit_meaning(how.exit_code);
        if (!meaning.empty()) why += " (" + meaning + ")";
        why += " before reporting it";
      }
      if (!last.empty()) why += "; its last output: " + last;
      rows.push_back(missing_result(unit, point, variant, result_status::error, why));
      const std::string at = point_text(rows.back());
      first_text = at.empty() ? variant : variant + " at " + at;
    } else {
      const std::string cause =
          sticky_exit ? "it stopped after a CUDA error that leaves the GPU unusable" : "it failed at " + first_text;
      const std::string why = "not run: the child process running this " + what + " ended early (" + cause + ")";
      rows.push_back(missing_result(unit, point, variant, result_status::skipped, why));
    }
  }
  return rows;
}

}  // namespace

run_summary run_isolated(const std::vector<isolation_unit>& units, reporter& out, const isolated_run_options& options) {
  run_summary summary;
  auto emit = [&](variant_result r) { summary.record(std::move(r), out); };
  // Baselines' GB/s per (lab, point), handed to the children of the other variants at that point.
  std::map<std::pair<const planned_lab*, std::uint64_t>, double> baseline_gbps;

  for (const isolation_unit& unit : units) {
    if (options.stop && options.stop->load()) break;
    received_results received;
    child_request request;
    const auto known = baseline_gbps.find({unit.lab, unit.point});
    request.program = options.program;
    if (options.input) request.input = options.input(unit);
    request.argv = options.command(unit, known == baseline_gbps.end() ? 0.0 : known->second);
    request.timeout_s = options.timeout_s;
    request.stop = options.stop;
    request.on_output_line = options.on_output_line;
    request.on_result_line = [&](const std::string& line) {
      try {
        results_line parsed = parse_results_line(line);
        if (parsed.is_context) return;
        variant_result& r = parsed.result;
        std::pair<std::uint64_t, std::string> id{r.point_index, r.variant};
        // Only what this unit's child was asked for, once each: anything else is no result of this run.
        if (r.lab_file != unit.lab->file_arg || !contains(unit.expected, id) || contains(received.ids, id)) {
          std::fprintf(
              stderr,
              "cudalab: the child process of %s sent a result it was not asked for (%s at point %llu); left out\n",
              unit.lab->file_arg.c_str(), r.variant.c_str(), static_cast<unsigned long long>(r.point_index));
          return;
        }
        received.ids.push_back(std::move(id));
        if (r.status == result_status::error) received.errors++;
        if (r.is_baseline && r.status == result_status::ok) baseline_gbps[{unit.lab, r.point_index}] = r.gbps;
        emit(std::move(r));
      } catch (const result_parse_error& e) {
        const std::string start = line.size() > 200 ? line.substr(0, 200) + "..." : line;
        std::fprintf(stderr, "cudalab: a child sent a line that is not a result (%s): %s\n", e.what(), start.c_str());
      }
    };
    const child_outcome how = run_child(request);
    if (how.stopped) {
      summary.interrupted = true;
      break;
    }
    const bool cuda_exit = how.ended_normally() && how.exit_code == exit_cuda_error;
    if (cuda_exit) summary.cuda_errors += std::max<std::uint64_t>(received.errors, 1);

    std::vector<variant_result> missing = missing_results(unit, received, how);
    if (missing.empty()) {
      if (!how.ended_normally()) {  // everything arrived, then it died: say so, the results stand
        std::fprintf(stderr, "cudalab: the child process of %s %s after its last result\n", unit.lab->file_arg.c_str(),
                     how.describe().c_str());
        summary.errors++;
      }
      continue;
    }
    if (cuda_exit && missing.front().status == result_status::error) summary.cuda_errors++;
    for (variant_result& r : missing) emit(std::move(r));
  }
  if (options.stop && options.stop->load()) summary.interrupted = true;
  return summary;
}

}  // namespace cudalab::host
