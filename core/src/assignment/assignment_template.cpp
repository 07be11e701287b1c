// A new assignment's file (assignment_template.hpp).
#include "assignment/assignment_template.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "assignment/starter_kit.hpp"
#include "labfile/spec_lookup.hpp"
#include "labfile/values.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

namespace {

std::int64_t bound_of(const param_spec& p, bool upper, std::int64_t fallback) {
  const auto& b = upper ? p.max : p.min;
  return b ? static_cast<std::int64_t>(*b) : fallback;
}

bool in_range(const param_spec& p, std::int64_t v) {
  return v >= bound_of(p, false, 1) && v <= bound_of(p, true, std::int64_t(1) << 40) &&
         (p.multiple_of <= 1 || v % p.multiple_of == 0);
}

// A parameter value as TOML: strings quoted, the rest as written.
std::string toml_of(const param_value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return quoted(*s);
  return value_text(v);
}

template <class T, class F>
std::string joined(const std::vector<T>& items, F text) {
  std::string out;
  for (const T& i : items) out += (out.empty() ? "" : ", ") + text(i);
  return out;
}

std::string integers(const std::vector<std::int64_t>& values) {
  return "[" + joined(values, [](std::int64_t v) { return std::to_string(v); }) + "]";
}

// `values` that parameter `p` accepts, each scaled to a multiple of what it must be a multiple of (an odd
// multiple stays as unaligned as a multiple can be).
std::vector<std::int64_t> accepted(const param_spec& p, const std::vector<std::int64_t>& values) {
  std::vector<std::int64_t> out;
  for (std::int64_t v : values) {
    if (p.multiple_of > 1) v *= p.multiple_of;
    if (in_range(p, v) && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

// The visible correctness test's sizes, as entries of its sweep. One size parameter sweeps odd sizes from
// 1 to 100003. Several move together in a zipped group, so that each takes every odd size while the
// others take the sizes in another order (the first ascending, the second descending, the third rotated
// by half, ...): every dimension odd and ragged at every point, tall and wide shapes, and no point with
// every dimension large.
std::vector<std::string> odd_size_entries(const std::vector<const param_spec*>& sizes) {
  if (sizes.size() == 1)
    return {sizes[0]->name + " = " + integers(accepted(*sizes[0], {1, 3, 31, 33, 257, 4099, 100003}))};
  std::vector<std::vector<std::int64_t>> lists;
  std::size_t length = SIZE_MAX;
  for (const param_spec* p : sizes) {
    lists.push_back(accepted(*p, {1, 3, 31, 33, 257, 4099}));
    length = std::min(length, lists.back().size());
  }
  if (length == 0) return {};
  std::string group;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    std::vector<std::int64_t> values(lists[d].begin(), lists[d].begin() + std::ptrdiff_t(length));
    if (d == 1) std::reverse(values.begin(), values.end());
    if (d >= 2)
      std::rotate(values.begin(), values.begin() + std::ptrdiff_t((d - 1) * length / sizes.size()), values.end());
    group += (group.empty() ? "" : ", ") + sizes[d]->name + " = " + integers(values);
  }
  return {"zip = [{ " + group + " }]"};
}

// The hidden test's random axes: every size parameter drawn on a log scale, so that the points stay
// below about 2^24 elements (each of k dimensions up to 2^(24/k)).
std::string random_entry(const std::vector<const param_spec*>& sizes) {
  std::string axes;
  const int count = sizes.size() == 1 ? 4 : 2;
  const std::int64_t cap = std::int64_t(1) << (24 / sizes.size());
  for (const param_spec* p : sizes) {
    const std::int64_t lo = std::max<std::int64_t>(bound_of(*p, false, 1), 1);
    const std::int64_t hi = std::max(lo, std::min(bound_of(*p, true, std::int64_t(1) << 30), cap));
    axes += fmt::format("{}{} = {{ from = {}, to = {}, count = {}, scale = \"log\" }}", axes.empty() ? "" : ", ",
                        p->name, lo, hi, count);
  }
  return "random = { " + axes + " }\n";
}

// The sanitizer tests' sizes: small and odd in every dimension, each its own (a mixed-up row and column
// shows), about 10^4 elements in all: 10007; 101 x 103; 21 x 23 x 25.
std::string small_size_entries(const std::vector<const param_spec*>& sizes) {
  std::int64_t side = std::llround(std::pow(10007.0, 1.0 / double(sizes.size())));
  side |= 1;
  std::string entries;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    const param_spec& p = *sizes[d];
    const std::int64_t v = std::clamp<std::int64_t>(side + 2 * std::int64_t(d), bound_of(p, false, 1),
                                                    bound_of(p, true, std::int64_t(1) << 40));
    entries += (entries.empty() ? "" : ", ") + p.name + " = " + std::to_string(v);
  }
  return entries;
}

// The lab file's sweeps of block shapes, as entries of a test's sweep: each axis of its own and each
// zipped group that holds a block-shape parameter and no size parameter, with its values as written.
std::vector<std::string> block_shape_entries(const lab_plan& plan, const lab_spec& spec) {
  auto spec_of = [&](const std::string& name) -> const param_spec* {
    for (const param_spec& p : spec.params)
      if (p.name == name) return &p;
    return nullptr;
  };
  std::vector<std::string> entries;
  for (const sweep_dimension& d : plan.dimensions()) {
    bool shape = false, size = false;
    std::string axes;
    for (std::size_t a = d.first; a < d.last; ++a) {
      const param_spec* p = spec_of(plan.sweep[a].name);
      shape = shape || (p && is_block_shape_param(*p));
      size = size || (p && is_size_param(*p));
      axes += (axes.empty() ? "" : ", ") + plan.sweep[a].name + " = [" +
              joined(plan.sweep[a].values, [](const param_value& v) { return toml_of(v); }) + "]";
    }
    if (!shape || size) continue;
    entries.push_back(plan.sweep[d.first].zip ? "zip = [{ " + axes + " }]" : axes);
  }
  return entries;
}

std::string sweep_line(const std::vector<std::string>& entries) {
  return entries.empty() ? "" : "sweep = { " + joined(entries, [](const std::string& e) { return e; }) + " }\n";
}

}  // namespace

bool is_size_param(const param_spec& p) {
  return p.type == param_type::integer && !p.tuning && p.allowed.empty() &&
         (p.unit == "elements" || p.unit == "values" || p.unit == "bytes");
}

bool is_block_shape_param(const param_spec& p) { return p.type == param_type::integer && p.unit == "threads"; }

std::string assignment_template(const planned_lab& lab, const std::string& slot, const fs::path& assignment_path,
                                const std::string& id) {
  const lab_spec& spec = lab.plugin->spec;
  const slot_spec* found = slot_named(spec, slot);
  if (!found) throw std::invalid_argument(no_slot_message(spec, slot));
  const fs::path folder = fs::absolute(assignment_path).parent_path();
  const std::string lab_path = fs::absolute(lab.file_arg).lexically_proximate(folder).generic_string();
  std::string out;
  out += "# Assignment for slot '" + slot + "' of lab '" + spec.name + "', made by `cudalab assignment init`.\n";
  out +=
      "# Edit the tests and points; `cudalab validate` checks this file, `cudalab assignment starter` makes the kit.\n";
  out += "[assignment]\n";
  out += "id = " + quoted(id) + "\n";
  out += "title = " + quoted(spec.title + ": write " + found->entry) + "\n";
  out += "lab = " + quoted(lab_path) + "\n";
  out += "slot = " + quoted(slot) + "\n";
  out += "points = 100\n";
  out += "description = " + quoted(found->summary + ".") + "\n\n";
  out += "[submission]\nfile = " + quoted(found->file_name) + "\nmax_bytes = \"256Ki\"\n\n";
  out += "[build]\nflags = [\"-lineinfo\"]\n";
  out +=
      "deny_headers = [\"cub/*\", \"thrust/*\", \"cuda/*\", \"cublas*\", \"cutlass/*\"]  # matched on every header "
      "reached\n";
  out += "allow_libraries = []\ncompile_timeout_s = 120\n\n";
  out += "[limits]\nunit_timeout_s = 30  # a test that sends no result for this long is stopped (an endless kernel)\n";
  out += "total_timeout_s = 900\n\n[anti_cheat]\nroofline_margin = 1.05\n";
  out += "census = true  # CUPTI records the kernels, copies and memsets of each checked run\n";
  out += "kernels = { min = 1, deny = [\"*cub::*\", \"*thrust::*\", \"*cublas*\", \"*cutlass*\"] }  # names as globs\n";
  // A slot the lab hands streams of its own must use them: "session" would flag every correct submission.
  out += found->streams == slot_streams::lab
             ? "stream = \"joined\"  # the lab hands the slot streams of its own (slot_spec::streams)\n"
             : "stream = \"session\"  # the slot's work goes on the stream the lab hands it\n";
  out += "host_copies = \"deny\"  # no host<->device copy while a device-memory lab's submission runs\n";
  out += "\n[feedback]\nmax_failures = 5\n";

  std::vector<const param_spec*> sizes;
  for (const param_spec& p : spec.params)
    if (is_size_param(p)) sizes.push_back(&p);
  const std::vector<std::string> shapes = block_shape_entries(lab.plan, spec);
  std::vector<std::string> odd = sizes.empty() ? std::vector<std::string>{} : odd_size_entries(sizes);
  odd.insert(odd.end(), shapes.begin(), shapes.end());
  const std::string random = sizes.empty() ? "" : random_entry(sizes);
  const std::string small =
      (sizes.empty() ? "" : "params = { " + small_size_entries(sizes) + " }\n") + sweep_line(shapes);
  out +=
      "\n[[test]]\nname = \"odd-sizes\"\nkind = \"correctness\"\nvisibility = \"visible\"\npoints = 30\npartial = "
      "true\n" +
      sweep_line(odd);
  out += "\n[[test]]\nname = \"hidden-sizes\"\nkind = \"correctness\"\nvisibility = \"hidden\"\npoints = 20\n" + random;
  out += "\n[[test]]\nname = \"bandwidth\"\nkind = \"performance\"\nvisibility = \"visible\"\npoints = 40\n";
  out += "requires = [\"odd-sizes\"]\nmetric = \"pct_of_baseline\"\nzero_at = 30\nfull_at = 90\n";
  out +=
      "\n[[test]]\nname = \"memcheck\"\nkind = \"sanitizer\"\ntool = \"memcheck\"\nvisibility = \"visible\"\npoints = "
      "5\n" +
      small;
  out +=
      "\n[[test]]\nname = \"racecheck\"\nkind = \"sanitizer\"\ntool = \"racecheck\"\nvisibility = \"visible\"\npoints "
      "= 5\n" +
      small;
  return out;
}

}  // namespace cudalab::host
