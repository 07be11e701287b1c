// Isolated runs: each lab file, or each variant at each point, in a child process of its own whose
// results come back over a pipe; a crash, a sticky CUDA error or a timeout costs only that unit.
#include "isolation/isolated_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "exit_codes.hpp"
#include "isolation/job_scheduler.hpp"
#include "isolation/job_split.hpp"
#include "labfile/spec_lookup.hpp"
#include "process/child_process.hpp"
#include "results/format.hpp"
#include "results/json.hpp"

namespace cudalab::host {

namespace {

// Whether `pl` moves bytes over the host bus for `variant` at `point` (what traffic_of says; a lab
// that throws there fails in its child, where the error is reported).
bool crosses_host_bus(const planned_lab& pl, std::uint64_t point, const std::string& variant) {
  try {
    const lab_spec& spec = pl.plugin->spec;
    return pl.plugin->instance->traffic_of(pl.plan.point(point), variant_of(spec, variant)).path ==
           memory_path::host_bus;
  } catch (...) {
    return false;
  }
}

// The GPU time one result of `pl` is planned to take, seconds (setup and verification left out).
double planned_result_s(const planned_lab& pl) {
  const measure_settings& m = pl.plan.measure;
  if (!m.timing) return 0.001;
  return (m.warmup_ms + std::max(1, m.repetitions) * m.min_time_ms) / 1e3;
}

}  // namespace

std::vector<isolation_unit> isolation_units(const std::vector<planned_lab>& plans, isolation_mode mode,
                                            const std::vector<std::string>& variant_filter, std::size_t workers) {
  // The run's planned seconds: what each worker's share of it is measured against.
  double run_s = 0;
  for (const planned_lab& pl : plans)
    run_s += double(pl.plan.point_count() * variants_to_run(pl.plan, variant_filter).size()) * planned_result_s(pl);
  std::vector<isolation_unit> units;
  std::size_t job = 0;
  for (const planned_lab& pl : plans) {
    const std::vector<std::string> names = variants_to_run(pl.plan, variant_filter);
    const std::uint64_t points = pl.plan.point_count();
    std::vector<bool> host_bus(points, false);
    for (std::uint64_t p = 0; p < points; ++p)
      for (const std::string& v : names) host_bus[p] = host_bus[p] || crosses_host_bus(pl, p, v);
    if (mode == isolation_mode::variant) {
      for (std::uint64_t p = 0; p < points; ++p) {
        for (const std::string& v : names) {
          isolation_unit one;
          one.lab = &pl;
          one.one_variant = true;
          one.point = one.last_point = p;
          one.variant = v;
          one.expected = {{p, v}};
          one.job = job;
          one.host_bus = host_bus[p];
          one.planned_s = planned_result_s(pl);
          units.push_back(std::move(one));
        }
        job++;
      }
      continue;
    }
    // The lab file's parts (one with one worker), each point's variants together in one part.
    std::vector<std::uint64_t> firsts{0};
    if (workers > 1 && points > 1) {
      std::vector<bool> new_data(points, true);
      for (std::uint64_t p = 1; p < points; ++p)
        new_data[p] = !same_data(pl.plugin->spec, pl.plan.point(p - 1), pl.plan.point(p));
      firsts = split_points(std::vector<double>(points, double(names.size()) * planned_result_s(pl)), new_data, run_s,
                            workers);
    }
    firsts.push_back(points);
    for (std::size_t i = 0; i + 1 < firsts.size(); ++i) {
      isolation_unit part;
      part.lab = &pl;
      part.job = job++;
      part.point = firsts[i];
      part.last_point = firsts[i + 1] > firsts[i] ? firsts[i + 1] - 1 : firsts[i];
      for (std::uint64_t p = firsts[i]; p < firsts[i + 1]; ++p) {
        part.host_bus = part.host_bus || host_bus[p];
        for (const std::string& v : names) {
          part.expected.emplace_back(p, v);
          part.planned_s += planned_result_s(pl);
        }
      }
      units.push_back(std::move(part));
    }
  }
  return units;
}

bool is_part_of_file(const isolation_unit& unit) {
  return !unit.one_variant && (unit.point > 0 || unit.last_point + 1 < unit.lab->plan.point_count());
}

namespace {

// A result the child never sent, filled in from the plan.
variant_result missing_result(const isolation_unit& unit, std::uint64_t point, const std::string& variant,
                              result_status status, result_failure failure, std::string why) {
  const planned_lab& pl = *unit.lab;
  variant_result r = point_result(pl, point);
  r.variant = variant;
  try {
    r.variant_summary = variant_summary(pl.plugin->spec, variant);
  } catch (const std::out_of_range&) {
  }
  r.is_baseline = variant == pl.plan.baseline;
  r.status = status;
  r.failure = failure;
  r.error = std::move(why);
  return r;
}

template <typename T>
bool contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// What became of a child that did not report a result, as data: the watchdog's doing, a CUDA error it
// exited with, or a crash (a signal, or any other end before the result).
result_failure failure_of(const child_outcome& how) {
  if (how.timed_out) return result_failure::timed_out;
  if (how.ended_normally() && how.exit_code == exit_cuda_error) return result_failure::cuda_error;
  return result_failure::crashed;
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
  const std::string what = unit.one_variant        ? "variant"
                           : is_part_of_file(unit) ? "part of the lab file (points " + std::to_string(unit.point) +
                                                         " to " + std::to_string(unit.last_point) + ")"
                                                   : "lab file";
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
        const std::string meaning = how.exit_code == exit_ok ? "" : meaning_of_exit_code(how.exit_code);
        if (!meaning.empty()) why += " (" + meaning + ")";
        why += " before reporting it";
      }
      if (!last.empty()) why += "; its last output: " + last;
      rows.push_back(missing_result(unit, point, variant, result_status::error, failure_of(how), why));
      const std::string at = point_text(rows.back());
      first_text = at.empty() ? variant : variant + " at " + at;
    } else {
      const std::string cause =
          sticky_exit ? "it stopped after a CUDA error that leaves the GPU unusable" : "it failed at " + first_text;
      const std::string why = "not run: the child process running this " + what + " ended early (" + cause + ")";
      rows.push_back(missing_result(unit, point, variant, result_status::skipped, result_failure::not_run, why));
    }
  }
  return rows;
}

// Results reach the reporters in the order of the jobs: a job's results as they arrive while every
// earlier job is done, the others kept until then.
class report_order {
 public:
  report_order(std::size_t jobs, run_summary& summary, reporter& out)
      : kept_(jobs), done_(jobs, false), summary_(summary), out_(out) {}

  void add(std::size_t job, variant_result r) {
    if (job == next_)
      summary_.record(std::move(r), out_);
    else
      kept_[job].push_back(std::move(r));
  }

  void done(std::size_t job) {
    done_[job] = true;
    while (next_ < done_.size() && done_[next_]) {
      next_++;
      if (next_ == done_.size()) break;
      for (variant_result& r : kept_[next_]) summary_.record(std::move(r), out_);
      kept_[next_].clear();
    }
  }

  // What was kept of jobs that never became next (a stopped run): reported all the same.
  void flush() {
    for (std::size_t j = next_; j < kept_.size(); ++j)
      for (variant_result& r : kept_[j]) summary_.record(std::move(r), out_);
    kept_.clear();
  }

 private:
  std::vector<std::vector<variant_result>> kept_;
  std::vector<bool> done_;
  std::size_t next_ = 0;
  run_summary& summary_;
  reporter& out_;
};

}  // namespace

run_summary run_isolated(const std::vector<isolation_unit>& units, reporter& out, const isolated_run_options& options,
                         const std::function<void(const variant_result&)>& arrived) {
  run_summary summary;
  const std::vector<isolation_worker> workers =
      options.workers.empty() ? std::vector<isolation_worker>{isolation_worker{}} : options.workers;
  // The jobs: their first units and whether they run alone.
  std::vector<std::size_t> job_start;
  std::vector<bool> alone;
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (u == 0 || units[u].job != units[u - 1].job) {
      job_start.push_back(u);
      alone.push_back(false);
    }
    if (workers.size() > 1 && units[u].host_bus) alone.back() = true;
  }
  job_start.push_back(units.size());
  // Over several workers, the jobs that run alone first (while every worker is free anyway), then
  // the longest planned first, so that no long job starts last while the other workers idle.
  std::vector<double> planned(alone.size(), 0);
  for (std::size_t j = 0; j < alone.size(); ++j)
    for (std::size_t u = job_start[j]; u < job_start[j + 1]; ++u) planned[j] += units[u].planned_s;
  std::vector<std::size_t> start_order(alone.size());
  for (std::size_t j = 0; j < start_order.size(); ++j) start_order[j] = j;
  if (workers.size() > 1)
    std::stable_sort(start_order.begin(), start_order.end(), [&](std::size_t a, std::size_t b) {
      return alone[a] != alone[b] ? bool(alone[a]) : planned[a] > planned[b];
    });

  std::mutex lock;  // over the summary, the reporters, the order and the baselines
  report_order order(alone.size(), summary, out);
  // Baselines' GB/s per (lab, point), handed to the children of the other variants at that point.
  std::map<std::pair<const planned_lab*, std::uint64_t>, double> baseline_gbps;
  bool stopped = false;

  // One unit in a child on `worker`; false when it was stopped.
  auto run_unit = [&](const isolation_unit& unit, std::size_t job, std::size_t w, const std::atomic<bool>& halt) {
    const isolation_worker& worker = workers[w];
    auto emit = [&](variant_result r) {
      r.device = worker.device;
      if (arrived) arrived(r);
      order.add(job, std::move(r));
    };
    received_results received;
    child_request request;
    double known = 0;
    {
      std::lock_guard guard(lock);
      const auto found = baseline_gbps.find({unit.lab, unit.point});
      if (found != baseline_gbps.end()) known = found->second;
    }
    request.program = options.program;
    if (options.input) request.input = options.input(unit, known, w);
    request.argv = options.command(unit, known, w);
    request.environment = worker.environment;
    request.timeout_s = options.timeout_s;
    request.limits = options.limits;
    request.sandbox = options.sandbox;
    request.stop = &halt;
    request.on_output_line = [&](const std::string& line) {
      std::lock_guard guard(lock);
      if (options.on_output_line) options.on_output_line(line);
    };
    // Progress, which restarts the unit's watchdog, is what the child owes and has not sent yet: its context
    // line (once its device is open), then each result. Each extends the child's time by the limit at most,
    // and nothing else does: not an empty line, a line that is no result, a result asked of no one or sent
    // twice. A child lives at most timeout_s x (its results + 2).
    bool context_sent = false;
    request.on_result_line = [&](const std::string& line) {
      std::lock_guard guard(lock);
      try {
        results_line parsed = parse_results_line(line);
        if (parsed.is_context) return !std::exchange(context_sent, true);
        variant_result& r = parsed.result;
        std::pair<std::uint64_t, std::string> id{r.point_index, r.variant};
        // Only what this unit's child was asked for, once each: anything else is no result of this run.
        if (r.lab_file != unit.lab->file_arg || !contains(unit.expected, id) || contains(received.ids, id)) {
          fmt::print(stderr,
                     "cudalab: the child process of {} sent a result it was not asked for ({} at point {}); left out\n",
                     unit.lab->file_arg, r.variant, r.point_index);
          return false;
        }
        received.ids.push_back(std::move(id));
        if (r.status == result_status::error) received.errors++;
        if (r.is_baseline && r.status == result_status::ok) baseline_gbps[{unit.lab, r.point_index}] = r.gbps;
        emit(std::move(r));
        return true;
      } catch (const result_parse_error& e) {
        const std::string start = line.size() > 200 ? line.substr(0, 200) + "..." : line;
        fmt::print(stderr, "cudalab: a child sent a line that is not a result ({}): {}\n", e.what(), start);
      }
      return false;
    };
    const child_outcome how = run_child(request);
    std::lock_guard guard(lock);
    if (how.stopped) {
      stopped = true;
      return false;
    }
    const bool cuda_exit = how.ended_normally() && how.exit_code == exit_cuda_error;
    if (cuda_exit) summary.cuda_errors += std::max<std::uint64_t>(received.errors, 1);

    std::vector<variant_result> missing = missing_results(unit, received, how);
    if (missing.empty()) {
      if (!how.ended_normally()) {  // everything arrived, then it died: say so, the results stand
        fmt::print(stderr, "cudalab: the child process of {} {} after its last result\n", unit.lab->file_arg,
                   how.describe());
        summary.errors++;
      }
      return true;
    }
    if (cuda_exit && missing.front().status == result_status::error) summary.cuda_errors++;
    for (variant_result& r : missing) emit(std::move(r));
    return true;
  };

  // Each job as it ran, by job; a job that never started stays unset.
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - options.started).count();
  };
  std::vector<std::optional<scheduled_job>> ran(alone.size());
  run_jobs(
      alone, start_order, workers.size(),
      [&](std::size_t job, std::size_t w, const std::atomic<bool>& halt) {
        scheduled_job s;
        s.lab_file = units[job_start[job]].lab->file_arg;
        s.first_point = units[job_start[job]].point;
        s.last_point = units[job_start[job + 1] - 1].last_point;
        s.device = workers[w].device;
        s.alone = alone[job];
        s.start_s = seconds();
        const auto record = [&] {  // under `lock`
          s.duration_s = seconds() - s.start_s;
          ran[job] = s;
        };
        for (std::size_t u = job_start[job]; u < job_start[job + 1]; ++u)
          if (halt.load() || !run_unit(units[u], job, w, halt)) {
            std::lock_guard guard(lock);
            record();
            return;
          }
        std::lock_guard guard(lock);
        record();
        order.done(job);
      },
      options.stop);
  order.flush();
  if (options.schedule) {
    options.schedule->jobs.clear();
    for (const auto& job : ran)
      if (job) options.schedule->jobs.push_back(*job);
    options.schedule->end_s = seconds();
  }
  if (stopped || (options.stop && options.stop->load())) summary.interrupted = true;
  return summary;
}

}  // namespace cudalab::host
