// The runner: drives validated lab files through setup -> (poison, run, verify, time) -> teardown.
#include "runner/runner.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "cudalab/cuda_error.hpp"
#include "model/access_model.hpp"
#include "plugin/spec_lookup.hpp"
#include "runner/host_session.hpp"
#include "runner/timing.hpp"
#include "runner/verified_run.hpp"

namespace cudalab::host {

void run_summary::record(variant_result r, reporter& out) {
  results++;
  if (r.status == result_status::verify_failed) verify_failures++;
  if (r.status == result_status::error) errors++;
  out.add(r);
  all.push_back(std::move(r));
}

void compute_rates(variant_result& r, const run_context& context, double baseline_gbps) {
  if (!r.time.timed || r.time.median_ms <= 0) return;
  r.gbps = double(r.bytes.total()) / (r.time.median_ms * 1e6);
  if (baseline_gbps > 0) r.pct_of_baseline = 100.0 * r.gbps / baseline_gbps;
  const ceilings& c = context.measured;
  if (r.bytes.path == memory_path::device) {
    if (c.d2d_copy_gbps > 0) r.pct_of_ceiling = 100.0 * r.gbps / c.d2d_copy_gbps;
    const double peak = context.device.peak_dram_gbps();
    if (peak > 0) r.pct_of_peak = 100.0 * r.gbps / peak;
  } else {
    // Bus traffic in both directions is compared with both directions at once; one way with one way.
    const double ceiling = r.bytes.bytes_read > 0 && r.bytes.bytes_written > 0
                               ? c.bidir_gbps
                               : (r.bytes.bytes_read > 0 ? c.h2d_gbps : c.d2h_gbps);
    if (ceiling > 0) r.pct_of_ceiling = 100.0 * r.gbps / ceiling;
  }
}

namespace {

class progress_line {
 public:
  progress_line(bool on, std::uint64_t total) : on_(on), total_(total) {}
  void show(const std::string& what) {
    ++done_;
    if (on_) std::fprintf(stderr, "\r\033[K[%llu/%llu] %s", (unsigned long long)done_, (unsigned long long)total_, what.c_str());
  }
  ~progress_line() {
    if (on_ && done_ > 0) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool on_;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
};

bool model_has_accesses(const access_stats& s) {
  return s.global_load.requests + s.global_store.requests + s.shared_load.requests + s.shared_store.requests > 0;
}

std::string labels_text(const std::vector<std::pair<std::string, std::string>>& labels) {
  std::string s;
  for (const auto& [k, v] : labels) s += " " + k + "=" + v;
  return s;
}

}  // namespace

run_summary run_plans(const std::vector<planned_lab>& plans, const run_context& context, reporter& out,
                      const run_options& options) {
  run_summary summary;
  std::uint64_t total = 0;
  auto names_of = [&](const lab_plan& plan) {
    return options.only_variant.empty() ? variants_to_run(plan, options.variant_filter)
                                        : std::vector<std::string>{options.only_variant};
  };
  for (const auto& pl : plans)
    total += (options.only_point ? 1 : pl.plan.point_count()) * names_of(pl.plan).size();
  progress_line progress(options.progress, total);
  auto emit = [&](variant_result r) { summary.record(std::move(r), out); };
  auto stopped = [&] { return options.stop && options.stop->load(); };

  for (const planned_lab& pl : plans) {
    lab& l = *pl.plugin->instance;
    const lab_spec& spec = pl.plugin->spec;
    const std::vector<std::string> names = names_of(pl.plan);
    host_session session(context.device, pl.plan.measure.seed);
    for (std::uint64_t pi = 0; pi < pl.plan.point_count(); ++pi) {
      if (stopped() || summary.cuda_fatal) break;
      if (options.only_point && pi != *options.only_point) continue;
      const params p = pl.plan.point(pi);
      variant_result base;
      base.lab_file = pl.file_arg;
      base.plugin = spec.name;
      base.title = pl.plan.title;
      base.point_index = pi;
      base.point = pl.plan.point_labels(pi);

      // Setup: a failure here is recorded against every variant of the point.
      std::string setup_error;
      bool setup_sticky = false;
      bool setup_cuda = false;
      try {
        l.setup(p, session);
      } catch (const cuda_error& e) {
        setup_error = std::string("setup failed: ") + e.what();
        setup_sticky = e.sticky();
        setup_cuda = true;
      } catch (const std::exception& e) {
        setup_error = std::string("setup failed: ") + e.what();
      }
      if (!setup_error.empty()) {
        for (const auto& name : names) {
          variant_result r = base;
          r.variant = name;
          r.is_baseline = name == pl.plan.baseline;
          r.status = result_status::error;
          r.error = setup_error;
          if (setup_cuda) summary.cuda_errors++;
          progress.show(spec.name + labels_text(base.point) + " " + name);
          emit(std::move(r));
        }
        l.teardown();
        session.clear_outputs();
        if (setup_sticky) {
          summary.cuda_fatal = true;
          summary.fatal_message = setup_error;
        }
        continue;
      }

      double baseline_gbps = options.only_variant.empty() ? 0.0 : options.baseline_gbps;
      for (const auto& name : names) {
        if (stopped() || summary.cuda_fatal) break;
        const variant_spec& v = find_variant(spec, name);
        progress.show(spec.name + labels_text(base.point) + " " + name);
        variant_result r = base;
        r.variant = v.name;
        r.variant_summary = v.summary;
        r.is_baseline = v.name == pl.plan.baseline;
        try {
          access_model model;
          l.trace(p, v, model);
          r.model = model.stats();
          r.has_model = model_has_accesses(r.model);
        } catch (const std::exception& e) {
          r.error = std::string("trace failed: ") + e.what();
        }
        try {
          r.bytes = l.traffic_of(v);
          r.verification = run_and_verify(l, v, session);
          if (!r.verification.passed) {
            r.status = result_status::verify_failed;
          } else if (pl.plan.measure.timing) {
            r.time = time_launches([&](cudaStream_t s) { l.run(v, s); }, session.stream(), pl.plan.measure,
                                   context.device.l2_cache_bytes);
            compute_rates(r, context, r.is_baseline ? 0.0 : baseline_gbps);
            if (r.is_baseline) {
              baseline_gbps = r.gbps;
              r.pct_of_baseline = 100.0;
            }
          }
        } catch (const cuda_error& e) {
          r.status = result_status::error;
          r.error = e.what();
          summary.cuda_errors++;
          if (e.sticky()) {
            summary.cuda_fatal = true;
            summary.fatal_message = e.what();
          }
        } catch (const std::exception& e) {
          r.status = result_status::error;
          r.error = e.what();
        }
        emit(std::move(r));
      }
      l.teardown();
      session.clear_outputs();
    }
  }
  summary.interrupted = stopped();
  return summary;
}

}  // namespace cudalab::host
