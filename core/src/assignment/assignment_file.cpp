// Parsing assignment files (assignment_file.hpp): one reader per table, then what holds between them
// (unique test names, requires, the points adding up). [[test]] tables are read by test_table.cpp.
#include "assignment/assignment_file.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "assignment/test_table.hpp"
#include "labfile/text_file.hpp"
#include "labfile/toml_reader.hpp"

namespace cudalab::host {

const std::vector<std::string>& test_kind_names() {
  static const std::vector<std::string> names = {"correctness", "performance", "sanitizer"};
  return names;
}

const char* test_kind_name(test_kind k) { return test_kind_names().at(static_cast<std::size_t>(k)).c_str(); }

namespace {

// A problem at the start of `file` (what is missing from the whole file).
lab_problem at_start(const std::string& file, std::string message) {
  lab_problem p;
  p.where.file = file;
  p.where.line = 1;
  p.where.column = 1;
  p.message = std::move(message);
  return p;
}

// [assignment]: id, title, lab (resolved against the file's folder), slot, points, description.
void read_assignment_table(const std::string& file, const toml::table& table, assignment_file& a,
                           std::vector<lab_problem>& problems) {
  table_reader r(file, table, "assignment", problems);
  a.id = r.text("id", "", true);
  if (!a.id.empty() && !std::all_of(a.id.begin(), a.id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
      }))
    r.report(*table.get("id"), "assignment.id is lower-case letters, digits, '-' and '_' (it names folders)");
  a.title = r.text("title", "", true);
  a.description = r.text("description");
  a.lab_as_written = r.text("lab", "", true);
  if (const toml::node* n = table.get("lab")) a.lab_where = locate(file, n->source());
  a.lab = a.path.parent_path() / a.lab_as_written;
  a.slot = r.text("slot", "", true);
  if (const toml::node* n = table.get("slot")) a.slot_where = locate(file, n->source());
  a.points = r.number("points", 0, 0, true);
}

// [submission]: file (a name, no folders), max_bytes.
void read_submission_table(const std::string& file, const toml::table& table, assignment_file& a,
                           std::vector<lab_problem>& problems) {
  table_reader r(file, table, "submission", problems);
  a.submission_file = r.text("file");
  if (a.submission_file.find('/') != std::string::npos)
    r.report(*table.get("file"), "submission.file is a file name, without folders");
  a.max_bytes = r.size("max_bytes", a.max_bytes, 1, "a positive size such as \"256Ki\"");
}

// [build]: flags, deny_headers, allow_libraries, compile_timeout_s.
void read_build_table(const std::string& file, const toml::table& table, assignment_file& a,
                      std::vector<lab_problem>& problems) {
  table_reader r(file, table, "build", problems);
  a.flags = r.strings("flags");
  a.deny_headers = r.strings("deny_headers");
  a.allow_libraries = r.strings("allow_libraries");
  a.compile_timeout_s = r.number("compile_timeout_s", a.compile_timeout_s, 1);
}

// [limits]: the children's time budgets and resource limits.
void read_limits_table(const std::string& file, const toml::table& table, assignment_file& a,
                       std::vector<lab_problem>& problems) {
  table_reader r(file, table, "limits", problems);
  a.unit_timeout_s = r.number("unit_timeout_s", a.unit_timeout_s, 1);
  a.total_timeout_s = r.number("total_timeout_s", a.total_timeout_s, 1);
  a.max_processes = r.count("max_processes", a.max_processes, 0);
  a.max_file_bytes = r.size("max_file_bytes", a.max_file_bytes, 0, "a size such as \"64Mi\" (0: no limit)");
  a.cpu_time_s = r.count("cpu_time_s", a.cpu_time_s, 0);
}

// [anti_cheat].kernels = { min, max, deny }.
void read_kernels_table(const std::string& file, const toml::table& table, census_policy& c,
                        std::vector<lab_problem>& problems) {
  table_reader r(file, table, "anti_cheat.kernels", problems);
  c.min_kernels = r.count("min", c.min_kernels, 0);
  if (const toml::node* n = table.get("max")) {
    const std::uint64_t max = r.count("max", 0, 1);
    if (max > 0 && max < c.min_kernels)
      r.problem(*n,
                "(" + std::to_string(max) + ") must be at least kernels.min (" + std::to_string(c.min_kernels) + ")");
    else if (max > 0)
      c.max_kernels = max;
  }
  if (const toml::node* n = table.get("deny")) {
    c.deny = r.strings("deny");
    for (const std::string& pattern : c.deny)
      if (pattern.empty()) r.problem(*n, "holds an empty pattern, which matches no kernel name");
  }
}

// [anti_cheat]: roofline_margin; the kernel census: census, kernels = { min, max, deny }, stream, host_copies.
void read_anti_cheat_table(const std::string& file, const toml::table& table, assignment_file& a,
                           std::vector<lab_problem>& problems) {
  table_reader r(file, table, "anti_cheat", problems);
  census_policy& c = a.census;
  a.roofline_margin = r.number("roofline_margin", a.roofline_margin, 1);
  c.enabled = r.boolean("census", c.enabled);
  if (const toml::node* n = r.get("kernels")) {
    if (const toml::table* t = n->as_table())
      read_kernels_table(file, *t, c, problems);
    else
      r.problem(*n, "must be a table such as { min = 1, max = 8, deny = [\"*cub::*\"] }, not " + describe_node(*n));
  }
  c.stream = r.word("stream", {"session", "joined", "any"}, c.stream);
  c.host_copies = r.word("host_copies", {"deny", "allow"}, c.host_copies);
}

// [feedback]: max_failures.
void read_feedback_table(const std::string& file, const toml::table& table, assignment_file& a,
                         std::vector<lab_problem>& problems) {
  table_reader r(file, table, "feedback", problems);
  a.max_failures = int(r.number("max_failures", a.max_failures, 1));
}

// One [[hidden]]: a test a starter kit only describes.
hidden_test read_hidden_table(const std::string& file, const toml::table& table, std::vector<lab_problem>& problems) {
  table_reader r(file, table, "hidden", problems);
  hidden_test h;
  h.name = r.text("name", "", true);
  h.kind = r.word("kind", test_kind_names(), "correctness", true);
  h.points = r.number("points", 0, 0, true);
  h.description = r.text("description");
  return h;
}

// What holds between the tables: test names unique, requires naming other tests, the points adding up.
void check_tests(const std::string& file, const assignment_file& a, std::vector<lab_problem>& problems) {
  std::set<std::string> names;
  double sum = 0;
  for (const hidden_test& h : a.hidden) sum += h.points;
  for (const assignment_test& t : a.tests) {
    sum += t.points;
    if (!t.name.empty() && !names.insert(t.name).second)
      problems.push_back({t.where, "a second test called '" + t.name + "': test names are unique"});
  }
  std::vector<std::string> all(names.begin(), names.end());
  for (const assignment_test& t : a.tests)
    for (const std::string& req : t.requires) {
      if (req == t.name)
        problems.push_back({t.where, "test '" + t.name + "' requires itself"});
      else if (!names.count(req))
        problems.push_back(
            {t.where, "test '" + t.name + "' requires '" + req + "', which is no test" + suggestion(req, all)});
    }
  if (!a.tests.empty() && a.points > 0 && std::fabs(sum - a.points) > 1e-9)
    problems.push_back(at_start(file, "the tests' points add up to " + value_text(param_value(sum)) +
                                          ", not assignment.points = " + value_text(param_value(a.points))));
}

}  // namespace

assignment_file parse_assignment(const std::filesystem::path& path) {
  const std::string file = path.string();
  assignment_file a;
  a.path = path;
  a.text = read_text(path, "assignment file");
  const toml::table doc = parse_toml(file, a.text);
  std::vector<lab_problem> problems;
  {
    table_reader top(file, doc, "the assignment file", problems);
    // Each table is read even when it is missing (its required keys are then reported) or not a table.
    static const toml::table none;
    const auto table = [&](const char* key) -> const toml::table& {
      const toml::table* t = top.section(key);
      return t ? *t : none;
    };
    if (!doc.get("assignment"))
      problems.push_back(at_start(file,
                                  "no [assignment] table: an assignment file starts with [assignment] id, title, "
                                  "lab, slot and points"));
    read_assignment_table(file, table("assignment"), a, problems);
    read_submission_table(file, table("submission"), a, problems);
    read_build_table(file, table("build"), a, problems);
    read_limits_table(file, table("limits"), a, problems);
    for (const toml::table* t : top.sections("test")) a.tests.push_back(read_test_table(file, *t, a.id, problems));
    for (const toml::table* h : top.sections("hidden")) a.hidden.push_back(read_hidden_table(file, *h, problems));
    read_anti_cheat_table(file, table("anti_cheat"), a, problems);
    read_feedback_table(file, table("feedback"), a, problems);
  }
  if (a.tests.empty() && doc.get("assignment"))
    problems.push_back(at_start(file, "no [[test]]: an assignment needs at least one test"));
  check_tests(file, a, problems);
  if (!problems.empty()) {
    sort_problems(problems);
    throw lab_file_error(problems);
  }
  return a;
}

bool is_assignment_file(const std::filesystem::path& path) {
  try {
    const std::string text = read_text(path, "file");
    return parse_toml(path.string(), text).get("assignment") != nullptr;
  } catch (const lab_file_error&) {
    return false;
  }
}

}  // namespace cudalab::host
