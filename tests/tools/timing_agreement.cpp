// Not a test (benchmarks are never CTest tests): checks that cudalab's timing agrees with plain CUDA
// events. In one process it runs the test lab through the same planner and runner as `cudalab run`,
// then times the same kernels with a bare event loop (warm-up, then the median of single launches and
// of 1 ms batches), and prints both with their difference and cudalab's coefficient of variation.
// usage: timing_agreement LAB_FILE PLUGIN_DIR
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "cudalab/event.hpp"
#include "device/gpu_probe.hpp"
#include "device/timing.hpp"
#include "labfile/spec_lookup.hpp"
#include "plan/planning.hpp"
#include "runner/host_session.hpp"
#include "runner/runner.hpp"
#include "runner/verified_run.hpp"

namespace {

class silent_reporter final : public cudalab::host::reporter {
 public:
  void begin(const cudalab::host::run_context&) override {}
  void add(const cudalab::host::variant_result&) override {}
  void end(const cudalab::host::run_context&) override {}
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Median per-launch time of `samples` event pairs, each around `batch` launches.
double plain_events_ms(cudalab::host::live_point& point, cudalab::variant_index v, cudaStream_t s, int batch,
                       int samples) {
  cudalab::event start, stop;
  for (int i = 0; i < 20; ++i) point.run(v, s);
  std::vector<double> ms;
  for (int i = 0; i < samples; ++i) {
    start.record(s);
    for (int b = 0; b < batch; ++b) point.run(v, s);
    stop.record(s);
    stop.synchronize();
    ms.push_back(cudalab::event::elapsed_ms(start, stop) / batch);
  }
  return median_of(ms);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cudalab::host;
  if (argc != 3) {
    fmt::print(stderr, "usage: {} LAB_FILE PLUGIN_DIR\n", argv[0]);
    return 2;
  }
  if (!probe_gpu().usable) return 77;
  const auto plans = plan_lab_files({{argv[1]}, {argv[2]}, nullptr, {}, {}});
  run_context ctx;
  ctx.device = read_device_info(0);
  silent_reporter quiet;
  const run_summary summary = run_plans(plans, ctx, quiet, {});
  fmt::print("{:<10} {:<12} {:>12} {:>8} {:>14} {:>14} {:>9}\n", "variant", "point", "cudalab ms", "CV %",
             "events 1x ms", "events batch", "diff %");
  for (const variant_result& r : summary.all) {
    const auto& pl = plans.front();
    host_session session(ctx.device, pl.plan.measure.seed);
    live_point point(*pl.plugin->instance, pl.plan.point(r.point_index), session, {r.plugin, "setup", "", ""});
    const cudalab::variant_index v = variant_of(pl.plugin->spec, r.variant);
    const double single = plain_events_ms(point, v, session.stream(), 1, 200);
    const double batched = plain_events_ms(point, v, session.stream(), static_cast<int>(r.time.batch), 50);
    const double reference = r.time.batch > 1 ? batched : single;
    fmt::print("{:<10} {:<12} {:>12.4f} {:>8.2f} {:>14.4f} {:>14.4f} {:>+8.2f}%\n", r.variant,
               r.point.empty() ? "" : r.point[0].first + "=" + r.point[0].second, r.time.median_ms, 100 * r.time.cv,
               single, batched, 100.0 * (r.time.median_ms - reference) / reference);
  }
  return 0;
}
