// The counters `run --profile` collects, and their sums by result.
#include "ncu/ncu_counters.hpp"

#include <cmath>

namespace cudalab::host {
namespace {

// What each access kind is called in the metrics' names.
struct global_op {
  measured_global measured_counters::*field;
  const char* op;
};
const global_op global_ops[] = {{&measured_counters::global_load, "ld"},
                                {&measured_counters::global_store, "st"},
                                {&measured_counters::global_atomic, "atom"},
                                {&measured_counters::global_atomic, "red"}};

struct shared_op {
  measured_shared measured_counters::*field;
  const char* op;
};
const shared_op shared_ops[] = {{&measured_counters::shared_load, "ld"},
                                {&measured_counters::shared_store, "st"},
                                {&measured_counters::shared_atomic, "atom"}};

std::string global_requests(const char* op) { return std::string("l1tex__t_requests_pipe_lsu_mem_global_op_") + op; }
std::string global_sectors(const char* op) { return std::string("l1tex__t_sectors_pipe_lsu_mem_global_op_") + op; }
// Instructions with at least one thread predicated on, counted by SASS patching: the model's requests,
// equal to them in every result of the H100 run (docs/model.md).
std::string shared_requests(const char* op) { return std::string("smsp__sass_inst_executed_op_shared_") + op; }
// The hardware's count of the same, which came out a few above SASS's (up to 21%), differently from
// run to run: collected for the raw page, read only when SASS's count is missing.
std::string shared_predicated_on(const char* op) {
  return std::string("smsp__inst_executed_op_shared_") + op + "_pred_on_any";
}
std::string shared_instructions(const char* op) { return std::string("smsp__inst_executed_op_shared_") + op; }
std::string shared_wavefronts(const char* op) {
  return std::string("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") + op;
}
std::string shared_address_wavefronts(const char* op) {
  return std::string("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_") + op;
}
std::string shared_conflicts(const char* op) {
  return std::string("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_") + op;
}
const char* const dram_read = "dram__bytes_read";
const char* const dram_written = "dram__bytes_write";

// Metric `name`'s sum for the kernel, when ncu reported it.
std::optional<std::uint64_t> sum_of(const ncu_kernel& k, const std::string& name) {
  const auto it = k.metrics.find(name + ".sum");
  if (it == k.metrics.end() || !(it->second >= 0)) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(it->second));
}

}  // namespace

const std::vector<std::string>& counter_metrics() {
  static const std::vector<std::string> metrics = [] {
    std::vector<std::string> m;
    for (const char* op : {"ld", "st", "atom", "red"}) {
      m.push_back(global_requests(op) + ".sum");
      m.push_back(global_sectors(op) + ".sum");
    }
    for (const char* op : {"ld", "st", "atom"})
      for (const std::string& name : {shared_predicated_on(op), shared_requests(op), shared_instructions(op),
                                      shared_wavefronts(op), shared_address_wavefronts(op), shared_conflicts(op)})
        m.push_back(name + ".sum");
    m.push_back(std::string(dram_read) + ".sum");
    m.push_back(std::string(dram_written) + ".sum");
    return m;
  }();
  return metrics;
}

std::string counter_metrics_list() {
  std::string list;
  for (const std::string& m : counter_metrics()) list += (list.empty() ? "" : ",") + m;
  return list;
}

measured_counters counters_of(const ncu_kernel& k) {
  measured_counters c;
  c.kernels = 1;
  for (const global_op& g : global_ops) {
    measured_global& t = c.*g.field;
    t.requests += sum_of(k, global_requests(g.op)).value_or(0);
    t.sectors += sum_of(k, global_sectors(g.op)).value_or(0);
  }
  for (const shared_op& s : shared_ops) {
    measured_shared& t = c.*s.field;
    t.wavefronts = sum_of(k, shared_wavefronts(s.op)).value_or(0);
    t.address_wavefronts = sum_of(k, shared_address_wavefronts(s.op)).value_or(t.wavefronts);
    t.conflicts = sum_of(k, shared_conflicts(s.op)).value_or(0);
    t.instructions = sum_of(k, shared_instructions(s.op)).value_or(0);
    t.requests = sum_of(k, shared_requests(s.op)).value_or(sum_of(k, shared_predicated_on(s.op)).value_or(0));
  }
  c.dram_bytes_read = sum_of(k, dram_read).value_or(0);
  c.dram_bytes_written = sum_of(k, dram_written).value_or(0);
  return c;
}

namespace {

// `more` added into `total`, field by field.
void add_counters(measured_counters& total, const measured_counters& more) {
  total.kernels += more.kernels;
  for (auto field :
       {&measured_counters::global_load, &measured_counters::global_store, &measured_counters::global_atomic}) {
    (total.*field).requests += (more.*field).requests;
    (total.*field).sectors += (more.*field).sectors;
  }
  for (auto field :
       {&measured_counters::shared_load, &measured_counters::shared_store, &measured_counters::shared_atomic}) {
    measured_shared& t = total.*field;
    const measured_shared& m = more.*field;
    t.requests += m.requests;
    t.instructions += m.instructions;
    t.wavefronts += m.wavefronts;
    t.address_wavefronts += m.address_wavefronts;
    t.conflicts += m.conflicts;
  }
  total.dram_bytes_read += more.dram_bytes_read;
  total.dram_bytes_written += more.dram_bytes_written;
}

}  // namespace

counted_kernels count_by_result(const std::vector<ncu_kernel>& kernels) {
  counted_kernels counted;
  for (const ncu_kernel& k : kernels) {
    const std::optional<range_key> key = find_range_name(k.nvtx);
    if (!key) {
      counted.outside++;
      continue;
    }
    add_counters(counted.by_result[*key], counters_of(k));
  }
  return counted;
}

}  // namespace cudalab::host
