// What a child process of cudalab is told, and its bytes (child_plan.hpp).
#include "isolation/child_plan.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>

namespace cudalab::host {
namespace {

constexpr const char* header = "cudalab-child-plan 1\n";

}  // namespace

const char* child_role_name(child_role r) {
  switch (r) {
    case child_role::probe:
      return "probe";
    case child_role::unit:
      return "unit";
    case child_role::whole_run:
      return "whole_run";
  }
  return "unit";
}

namespace {

std::optional<child_role> role_of(const std::string& name) {
  for (const child_role r : {child_role::probe, child_role::unit, child_role::whole_run})
    if (name == child_role_name(r)) return r;
  return std::nullopt;
}

// A number as text that reads back to the same double ("{}" is fmt's shortest round trip).
std::string number_text(double v) { return fmt::format("{}", v); }

std::optional<double> number_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::int64_t> integer_of(const std::string& text) {
  std::int64_t v = 0;
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || stop != text.data() + text.size()) return std::nullopt;
  return v;
}

std::string ceilings_text(const ceilings& c) {
  return number_text(c.d2d_copy_gbps) + " " + number_text(c.h2d_gbps) + " " + number_text(c.d2h_gbps) + " " +
         number_text(c.bidir_gbps) + " " + number_text(c.l2_copy_gbps);
}

std::optional<ceilings> ceilings_of(const std::string& text) {
  std::istringstream in(text);
  std::string words[5], extra;
  for (std::string& w : words)
    if (!(in >> w)) return std::nullopt;
  if (in >> extra) return std::nullopt;
  double values[5];
  for (int i = 0; i < 5; ++i) {
    const auto v = number_of(words[i]);
    if (!v) return std::nullopt;
    values[i] = *v;
  }
  return ceilings{values[0], values[1], values[2], values[3], values[4]};
}

// The entries of a plan, in order: (key, bytes).
using entries = std::vector<std::pair<std::string, std::string>>;

entries entries_of(const child_plan& p) {
  entries e{{"role", child_role_name(p.role)}, {"parent_pid", std::to_string(p.parent_pid)}};
  for (const std::string& s : p.plugin_paths) e.emplace_back("plugin_path", s);
  for (const std::string& s : p.sets) e.emplace_back("set", s);
  for (const std::string& s : p.variants) e.emplace_back("variant_filter", s);
  e.emplace_back("profile_file", p.profile_file);
  e.emplace_back("profile_text", p.profile_text);
  for (const child_lab& l : p.labs) {
    e.emplace_back("lab_file", l.file);
    e.emplace_back("lab_text", l.text);
  }
  for (const submission_arg& s : p.submissions) {
    e.emplace_back("submission_slot", s.slot);
    e.emplace_back("submission_file", s.file);
  }
  e.emplace_back("launchers_apart", p.launchers_apart ? "1" : "0");
  if (p.measured) e.emplace_back("measured", ceilings_text(*p.measured));
  e.emplace_back("first_point", std::to_string(p.first_point));
  e.emplace_back("last_point", std::to_string(p.last_point));
  e.emplace_back("variant", p.variant);
  e.emplace_back("baseline_gbps", number_text(p.baseline_gbps));
  e.emplace_back("out_dir", p.out_dir);
  if (p.device) e.emplace_back("device", std::to_string(*p.device));
  return e;
}

// Reads "KEY SIZE\n" and SIZE bytes at `at`, moving past them.
bool entry_at(const std::string& text, std::size_t& at, std::string& key, std::string& bytes) {
  const std::size_t end = text.find('\n', at);
  if (end == std::string::npos) return false;
  const std::string line = text.substr(at, end - at);
  const std::size_t space = line.find(' ');
  if (space == std::string::npos || space == 0) return false;
  const auto size = integer_of(line.substr(space + 1));
  if (!size || *size < 0 || std::size_t(*size) > text.size() - end - 1) return false;
  key = line.substr(0, space);
  bytes = text.substr(end + 1, std::size_t(*size));
  at = end + 1 + std::size_t(*size);
  return true;
}

}  // namespace

std::string child_plan_text(const child_plan& plan) {
  std::string text = header;
  for (const auto& [key, bytes] : entries_of(plan)) text += key + " " + std::to_string(bytes.size()) + "\n" + bytes;
  return text;
}

std::optional<child_plan> parse_child_plan(const std::string& text) {
  const std::string start(header);
  if (text.compare(0, start.size(), start) != 0) return std::nullopt;
  child_plan p;
  std::string pending_slot;  // a submission's slot, waiting for its file
  bool pending_lab = false;  // a lab file's name, waiting for its text
  bool ok = true;
  const auto set_integer = [&](std::int64_t& field, const std::string& bytes) {
    const auto v = integer_of(bytes);
    ok = ok && v.has_value();
    if (v) field = *v;
  };
  const std::map<std::string, std::function<void(const std::string&)>> fields = {
      {"role",
       [&](const std::string& b) {
         const auto r = role_of(b);
         ok = ok && r.has_value();
         if (r) p.role = *r;
       }},
      {"parent_pid",
       [&](const std::string& b) {
         std::int64_t v = 0;
         set_integer(v, b);
         p.parent_pid = long(v);
       }},
      {"plugin_path", [&](const std::string& b) { p.plugin_paths.push_back(b); }},
      {"set", [&](const std::string& b) { p.sets.push_back(b); }},
      {"variant_filter", [&](const std::string& b) { p.variants.push_back(b); }},
      {"profile_file", [&](const std::string& b) { p.profile_file = b; }},
      {"profile_text", [&](const std::string& b) { p.profile_text = b; }},
      {"lab_file",
       [&](const std::string& b) {
         ok = ok && !pending_lab;
         p.labs.push_back({b, ""});
         pending_lab = true;
       }},
      {"lab_text",
       [&](const std::string& b) {
         ok = ok && pending_lab;
         if (pending_lab) p.labs.back().text = b;
         pending_lab = false;
       }},
      {"submission_slot",
       [&](const std::string& b) {
         ok = ok && pending_slot.empty() && !b.empty();
         pending_slot = b;
       }},
      {"submission_file",
       [&](const std::string& b) {
         ok = ok && !pending_slot.empty();
         p.submissions.push_back({pending_slot, b});
         pending_slot.clear();
       }},
      {"measured",
       [&](const std::string& b) {
         p.measured = ceilings_of(b);
         ok = ok && p.measured.has_value();
       }},
      {"launchers_apart",
       [&](const std::string& b) {
         ok = ok && (b == "0" || b == "1");
         p.launchers_apart = b == "1";
       }},
      {"first_point", [&](const std::string& b) { set_integer(p.first_point, b); }},
      {"last_point", [&](const std::string& b) { set_integer(p.last_point, b); }},
      {"variant", [&](const std::string& b) { p.variant = b; }},
      {"baseline_gbps",
       [&](const std::string& b) {
         const auto v = number_of(b);
         ok = ok && v.has_value();
         if (v) p.baseline_gbps = *v;
       }},
      {"out_dir", [&](const std::string& b) { p.out_dir = b; }},
      {"device",
       [&](const std::string& b) {
         std::int64_t v = 0;
         set_integer(v, b);
         p.device = int(v);
       }},
  };
  std::size_t at = start.size();
  while (ok && at < text.size()) {
    std::string key, bytes;
    if (!entry_at(text, at, key, bytes)) return std::nullopt;
    const auto field = fields.find(key);
    if (field == fields.end()) return std::nullopt;
    field->second(bytes);
  }
  if (!ok || pending_lab || !pending_slot.empty()) return std::nullopt;
  return p;
}

std::optional<child_plan> read_child_plan(int fd) {
  std::string text;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    text.append(buf, std::size_t(n));
  }
  return parse_child_plan(text);
}

std::optional<child_plan> read_child_plan_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  auto plan = read_child_plan(fd);
  ::close(fd);
  return plan;
}

}  // namespace cudalab::host
