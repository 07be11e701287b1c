// The starter kit of an assignment (starter_kit.hpp).
#include "assignment/starter_kit.hpp"

#include <fmt/format.h>

#include <sstream>

#include "assignment/kit_plugin.hpp"
#include "results/safe_file.hpp"
#include "slots/solution_regions.hpp"

namespace cudalab::host {

namespace fs = std::filesystem;

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

namespace {

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quoted(items[i]);
  return out + "]";
}

std::string number(double v) { return fmt::format("{}", v); }

// One [[test]] as written (random axes as the values drawn).
void write_test(std::ostream& out, const assignment_test& t) {
  out << "\n[[test]]\nname = " << quoted(t.name) << "\nkind = " << quoted(test_kind_name(t.kind)) << "\n";
  out << "visibility = " << quoted(t.visibility == test_visibility::hidden ? "hidden" : "visible") << "\n";
  out << "points = " << number(t.points) << "\n";
  if (!t.description.empty()) out << "description = " << quoted(t.description) << "\n";
  auto inline_table = [&](const char* key, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    out << key << " = { ";
    for (std::size_t i = 0; i < lines.size(); ++i) out << (i ? ", " : "") << lines[i];
    out << " }\n";
  };
  inline_table("params", t.params);
  inline_table("sweep", t.sweep_lines());
  if (t.kind == test_kind::correctness && t.partial) out << "partial = true\n";
  if (t.kind == test_kind::performance) {
    out << "metric = " << quoted(t.metric) << "\nzero_at = " << number(t.zero_at) << "\nfull_at = " << number(t.full_at)
        << "\n";
    if (!t.requires.empty()) out << "requires = " << list(t.requires) << "\n";
  }
  if (t.kind == test_kind::sanitizer) out << "tool = " << quoted(t.tool) << "\n";
}

// What a hidden test checks, in words, for students.
std::string hidden_words(const assignment_test& t) {
  if (!t.description.empty()) return t.description;
  std::string words = std::string(test_kind_name(t.kind)) + " at sizes you do not see";
  if (!t.random_text.empty()) words += ": " + t.random_text;
  return words;
}

}  // namespace

std::string assignment_text(const loaded_assignment& a, bool public_copy, const std::string& lab) {
  const assignment_file& f = a.file;
  std::ostringstream out;
  out << "# " << f.title << (public_copy ? " - the students' copy (cudalab assignment starter)" : "") << "\n";
  out << "[assignment]\nid = " << quoted(f.id) << "\ntitle = " << quoted(f.title) << "\nlab = " << quoted(lab)
      << "\nslot = " << quoted(f.slot) << "\npoints = " << number(f.points) << "\n";
  if (!f.description.empty()) out << "description = " << quoted(f.description) << "\n";
  out << "\n[submission]\nfile = " << quoted(a.submission_name()) << "\nmax_bytes = " << f.max_bytes << "\n";
  out << "\n[build]\nflags = " << list(f.flags) << "\ndeny_headers = " << list(f.deny_headers)
      << "\nallow_libraries = " << list(f.allow_libraries) << "\ncompile_timeout_s = " << number(f.compile_timeout_s)
      << "\n";
  out << "\n[limits]\nunit_timeout_s = " << number(f.unit_timeout_s)
      << "\ntotal_timeout_s = " << number(f.total_timeout_s) << "\nmax_processes = " << f.max_processes
      << "\nmax_file_bytes = " << f.max_file_bytes << "\ncpu_time_s = " << f.cpu_time_s << "\n";
  const census_policy& c = f.census;
  out << "\n[anti_cheat]\nroofline_margin = " << number(f.roofline_margin)
      << "\ncensus = " << (c.enabled ? "true" : "false") << "\nkernels = { min = " << c.min_kernels
      << (c.max_kernels ? ", max = " + std::to_string(*c.max_kernels) : std::string()) << ", deny = " << list(c.deny)
      << " }\nstream = " << quoted(c.stream) << "\nhost_copies = " << quoted(c.host_copies) << "\n";
  out << "\n[feedback]\nmax_failures = " << f.max_failures << "\n";
  for (const assignment_test& t : f.tests)
    if (!public_copy || t.visibility == test_visibility::visible) write_test(out, t);
  for (const hidden_test& h : f.hidden)
    out << "\n[[hidden]]\nname = " << quoted(h.name) << "\nkind = " << quoted(h.kind)
        << "\npoints = " << number(h.points) << "\ndescription = " << quoted(h.description) << "\n";
  if (public_copy)
    for (const assignment_test& t : f.tests)
      if (t.visibility == test_visibility::hidden)
        out << "\n[[hidden]]\nname = " << quoted(t.name) << "\nkind = " << quoted(test_kind_name(t.kind))
            << "\npoints = " << number(t.points) << "\ndescription = " << quoted(hidden_words(t)) << "\n";
  return out.str();
}

std::string starter_of(const loaded_assignment& a) { return starter_source(a.slot->reference, a.slot->file_name); }

void make_empty_folder(const fs::path& out) {
  std::error_code ec;
  if (fs::exists(out, ec) && !(fs::is_directory(out, ec) && fs::is_empty(out, ec)))
    throw std::runtime_error(out.string() + " is there already and is not an empty folder");
  fs::create_directories(out, ec);
  if (ec) throw std::runtime_error("cannot make " + out.string() + ": " + ec.message());
}

std::vector<fs::path> write_starter_kit(const loaded_assignment& a, const fs::path& out, const kit_lab_plugin& plugin) {
  const std::string starter = starter_of(a);  // before anything is written: markers that do not pair up throw
  make_empty_folder(out);
  const std::vector<fs::path> plugin_files =
      plugin.source.empty() ? std::vector<fs::path>{} : write_kit_plugin(plugin.source, out);
  const fs::path source = out / a.submission_name(), lab = out / "lab.toml", assignment = out / "assignment.toml",
                 readme = out / "README.md";
  write_file_atomically(source, starter);
  write_file_atomically(lab, a.base.text);
  write_file_atomically(assignment, assignment_text(a, true, "lab.toml"));

  const assignment_file& f = a.file;
  std::ostringstream md;
  md << "# " << f.title << "\n\n";
  if (!f.description.empty()) md << f.description << "\n\n";
  // The description says what to write (init's template: the slot's summary); the slot's words only
  // where it says nothing.
  md << "Write `" << a.slot->entry << "` in `" << a.submission_name() << "`"
     << (f.description.empty() ? ": " + a.slot->summary + ". " : ". ");
  md << "The comment at the top of that file says how the lab calls your code. Replace every `// TODO` part; "
        "the file as given compiles and fails the tests.\n\n";
  md << "## Rubric (" << number(f.points) << " points)\n\n| test | kind | what | points |\n|---|---|---|---:|\n";
  for (const assignment_test& t : f.tests) {
    if (t.visibility != test_visibility::visible) continue;
    std::string what = t.description;
    if (what.empty()) {
      for (const auto& l : t.params) what += (what.empty() ? "" : ", ") + l;
      for (const auto& l : t.sweep_lines()) what += (what.empty() ? "" : ", ") + l;
      if (t.kind == test_kind::performance)
        what += (what.empty() ? "" : "; ") + t.metric + ": 0 points at " + number(t.zero_at) + ", all at " +
                number(t.full_at);
      if (t.kind == test_kind::sanitizer) what = "compute-sanitizer " + t.tool + (what.empty() ? "" : " at " + what);
    }
    md << "| " << t.name << " | " << test_kind_name(t.kind) << " | " << what << " | " << number(t.points) << " |\n";
  }
  for (const assignment_test& t : f.tests)
    if (t.visibility == test_visibility::hidden)
      md << "| " << t.name << " (hidden) | " << test_kind_name(t.kind) << " | " << hidden_words(t) << " | "
         << number(t.points) << " |\n";
  if (!plugin.source.empty())
    md << "\n## The lab's plugin\n\nThis lab is not part of cudalab: its plugin's source is in `" << kit_plugin_folder
       << "/` (without the solution). Build it once, in this folder, with cudalab installed and on PATH:\n\n```sh\n"
       << kit_build_command(".") << "\n```\n\n`check` finds it in `build/`.\n";
  else if (!plugin.package.empty())
    md << "\n## The lab's plugin\n\nThis lab is not part of cudalab. Install its plugin first: " << plugin.package
       << "\n";
  md << "\n## Commands\n\nIn this folder:\n\n```sh\n";
  md << "cudalab check assignment.toml --submission " << a.submission_name()
     << "            # build, the visible tests, sanitizers, a projected score\n";
  md << "cudalab check assignment.toml --submission " << a.submission_name()
     << " --no-gpu   # build and header policy only\n```\n\n";
  md << "`check` builds your file as the grader does (flags " << list(f.flags)
     << "; headers you may not include: " << (f.deny_headers.empty() ? std::string("none") : list(f.deny_headers))
     << "). Performance is measured as a percentage of the lab's baseline on your own GPU, in the same run. "
        "Hidden tests are graded by the course, not by `check`.\n";
  write_file_atomically(readme, md.str());
  std::vector<fs::path> written{source, lab, assignment, readme};
  written.insert(written.end(), plugin_files.begin(), plugin_files.end());
  return written;
}

}  // namespace cudalab::host
