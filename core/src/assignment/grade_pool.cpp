// A class graded by one worker per GPU (grade_pool.hpp).
#include "assignment/grade_pool.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "assignment/test_session.hpp"
#include "exit_codes.hpp"
#include "isolation/gpu_workers.hpp"
#include "isolation/job_scheduler.hpp"
#include "process/child_process.hpp"
#include "process/stop_signals.hpp"

namespace cudalab::host {

namespace {

// A probe measures the ceilings in seconds; one that takes this long has a GPU that does not answer.
constexpr double probe_timeout_s = 600;

// GPU `ordinal` as `cudalab device --format json --device N` measures it in a child (this process never
// initialises CUDA: its workers' children own the GPUs); nullopt, said on stderr, when it cannot.
std::optional<probed_card> probe_card(const std::string& program, int ordinal, const std::atomic<bool>* stop) {
  child_request q;
  q.program = program;
  q.argv = {program, "device", "--format", "json", "--device", std::to_string(ordinal)};
  q.timeout_s = probe_timeout_s;
  q.stop = stop;
  q.keep_lines = 8;
  std::string text;
  q.on_output_line = [&](const std::string& line) { text += line + "\n"; };
  const child_outcome o = run_child(q);
  if (o.ended_normally() && o.exit_code == exit_ok) {
    try {
      const auto j = nlohmann::json::parse(text.substr(std::min(text.find('{'), text.size())));
      return probed_card{ordinal, j.at("name").get<std::string>(), j.at("pci_bus_id").get<std::string>(),
                         j.at("ceilings").at("d2d_copy_gbps").get<double>()};
    } catch (const std::exception& e) {
      fmt::print(stderr, "cudalab: grade: GPU {}: its probe's answer is not cudalab's JSON: {}\n", ordinal, e.what());
      return std::nullopt;
    }
  }
  fmt::print(stderr, "cudalab: grade: GPU {} of --devices cannot grade: its probe {}\n", ordinal, o.describe());
  for (const std::string& line : o.last_output) fmt::print(stderr, "  {}\n", line);
  return std::nullopt;
}

// The console the workers share: each line whole.
class shared_console {
 public:
  template <typename... Args>
  void say(std::FILE* to, fmt::format_string<Args...> format, Args&&... args) {
    const std::lock_guard<std::mutex> lock(mutex_);
    fmt::print(to, format, std::forward<Args>(args)...);
    std::fflush(to);
  }

 private:
  std::mutex mutex_;
};

// A card that stopped answering: the batch stops as a one-GPU batch does without a GPU.
struct card_failed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Grades `job` on GPU `ordinal` in a child of its own; throws card_failed when the child finds no GPU.
void grade_job_on(const std::string& program, const grade_request& req, const grade_job& job, int ordinal,
                  shared_console& console, const std::atomic<bool>& halt) {
  console.say(stdout, "GPU {}: grading {} ({})\n", ordinal, job.student, job.submission.string());
  child_request q;
  q.program = program;
  q.argv = job_argv(program, req, job, ordinal);
  q.stop = &halt;
  // A batch killed (kill -9 included) takes its workers' students with it: run again, it grades them
  // again alone, never beside a grading left running into the same folder.
  q.die_with_parent = true;
  q.on_output_line = [&](const std::string& line) {
    console.say(stdout, "  [GPU {} {}] {}\n", ordinal, job.student, line);
  };
  const child_outcome o = run_child(q);
  if (o.stopped) return;
  if (o.ended_normally() && o.exit_code == exit_ok) {
    console.say(stdout, "GPU {}: {} graded\n", ordinal, job.student);
    return;
  }
  if (o.ended_normally() && o.exit_code == exit_no_gpu)
    throw card_failed(
        fmt::format("GPU {} has no usable GPU any more (grading {}): the batch stops; run it again "
                    "without that GPU to grade the rest",
                    ordinal, job.student));
  console.say(stderr, "cudalab: grade: {} (GPU {}): its grading {}; the gradebook says so\n", job.student, ordinal,
              o.describe());
}

}  // namespace

std::optional<std::string> ceilings_disagree(const std::vector<probed_card>& cards, double tolerance) {
  if (cards.size() < 2) return std::nullopt;
  const auto [slow, fast] =
      std::minmax_element(cards.begin(), cards.end(),
                          [](const probed_card& a, const probed_card& b) { return a.d2d_copy_gbps < b.d2d_copy_gbps; });
  if (slow->d2d_copy_gbps > 0 && fast->d2d_copy_gbps <= slow->d2d_copy_gbps * (1 + tolerance)) return std::nullopt;
  return fmt::format(
      "the GPUs' DRAM copy ceilings differ by more than {:.0f}%: GPU {} ({}) copies {:.0f} GB/s, GPU {} ({}) {:.0f} "
      "GB/s. That is more than a performance test's rounds let the baseline drift, so a student's score would depend "
      "on the card drawn (the roofline check and pct_of_ceiling tests use the card's ceiling). Grade on cards that "
      "agree (drop one from --devices), or find why one is slow (`cudalab device --device N`: clocks, throttling)",
      tolerance * 100, fast->ordinal, fast->name, fast->d2d_copy_gbps, slow->ordinal, slow->name, slow->d2d_copy_gbps);
}

int grade_on_devices(const grade_request& req, const std::vector<grade_job>& jobs) {
  const std::string& program = req.settings.program;
  std::vector<isolation_worker> workers;
  try {
    workers = gpu_workers(req.devices, std::getenv("CUDA_VISIBLE_DEVICES"));
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "cudalab: grade: --devices: {}\n", e.what());
    return exit_no_gpu;
  }
  const stop_signals signals;
  std::vector<probed_card> cards;
  for (const int ordinal : distinct_devices(req.devices)) {
    const auto card = probe_card(program, ordinal, signals.requested());
    if (signals.requested()->load()) return exit_interrupted;
    if (!card) return exit_no_gpu;
    fmt::print("GPU {}: {} ({}), DRAM copy {:.0f} GB/s\n", card->ordinal, card->name, card->pci_bus_id,
               card->d2d_copy_gbps);
    cards.push_back(*card);
  }
  if (const auto why = ceilings_disagree(cards, max_baseline_drift)) {
    fmt::print(stderr, "cudalab: grade: refused: {}\n", *why);
    return exit_no_gpu;
  }
  for (const probed_card& c : cards)
    if (c.name != cards.front().name)
      fmt::print(stderr,
                 "cudalab: warning: the GPUs of --devices are of different models ({}: {}, {}: {}); their copy "
                 "ceilings agree, and every student is timed against the baseline on their own card\n",
                 cards.front().ordinal, cards.front().name, c.ordinal, c.name);
  fmt::print("{} student(s) to grade on {} worker(s)\n", jobs.size(), workers.size());
  shared_console console;
  try {
    // Every job may run beside any other: each worker has a card of its own (run_jobs' exclusive jobs are
    // for work on the shared host bus, which a student's grading is not: its tests are device-resident).
    run_jobs(
        std::vector<bool>(jobs.size(), false), {}, workers.size(),
        [&](std::size_t job, std::size_t worker, const std::atomic<bool>& halt) {
          grade_job_on(program, req, jobs[job], workers[worker].device, console, halt);
        },
        signals.requested());
  } catch (const card_failed& e) {
    fmt::print(stderr, "cudalab: grade: {}\n", e.what());
    return exit_no_gpu;
  }
  return signals.requested()->load() ? exit_interrupted : exit_ok;
}

}  // namespace cudalab::host
