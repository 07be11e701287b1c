// Parsing assignment files and writing their tests' lab files (assignment_file.hpp).
#include "labfile/assignment_file.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "labfile/toml_tree.hpp"

namespace cudalab::host {

const char* test_kind_name(test_kind k) {
  switch (k) {
    case test_kind::correctness:
      return "correctness";
    case test_kind::performance:
      return "performance";
    case test_kind::sanitizer:
      return "sanitizer";
  }
  return "?";
}

namespace {

// The words a test's kind is written with.
const std::vector<std::string>& test_kind_words() {
  static const std::vector<std::string> words = {"correctness", "performance", "sanitizer"};
  return words;
}

// A problem at the start of `file` (what is missing from the whole file).
lab_problem at_start(const std::string& file, std::string message) {
  lab_problem p;
  p.where.file = file;
  p.where.line = 1;
  p.where.column = 1;
  p.message = std::move(message);
  return p;
}

// A 64-bit mix (splitmix64): the random axes are drawn from the assignment's and test's names, so a
// file gives the same values wherever it is read.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::uint64_t seed_of(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

// An integer or a size ("64Mi") for a random axis bound, or nullopt after recording the problem.
std::optional<std::int64_t> bound(table_reader& r, const std::string& key) {
  const toml::node* n = r.get(key);
  if (!n) {
    r.missing(key);
    return std::nullopt;
  }
  if (const auto i = n->as_integer()) return i->get();
  if (const auto s = n->as_string())
    if (const auto v = parse_size(s->get())) return *v;
  r.problem(*n, "must be an integer or a size such as \"64Mi\", not " + describe_node(*n));
  return std::nullopt;
}

// [[test]].random: { NAME = { from, to, count, scale = "log" | "linear" } or { choices = [...], count } },
// read into axes; the words for the kit go to t.random_text.
void read_random(const std::string& file, const toml::table& random, assignment_test& t,
                 std::vector<lab_problem>& problems) {
  for (const auto& [key, node] : random) {
    const std::string name(key.str());
    const toml::table* table = node.as_table();
    if (!table) {
      problems.push_back({locate(file, node.source()),
                          "random." + name + " must be a table such as { from = 1, to = \"64Mi\", count = 4 }"});
      continue;
    }
    table_reader r(file, *table, "random." + name, problems);
    random_axis axis;
    axis.name = name;
    axis.count = int(r.number("count", 1, 1));
    std::string words;
    if (table->get("choices")) {
      const toml::node* c = r.get("choices");
      if (const toml::array* a = c->as_array())
        for (const toml::node& e : *a)
          if (const auto i = e.as_integer()) axis.choices.push_back(i->get());
      if (axis.choices.empty()) {
        r.problem(*c, "must be a non-empty list of integers");
        continue;
      }
      words = std::to_string(axis.count) + " of " + toml_text(*c);
    } else {
      const auto from = bound(r, "from"), to = bound(r, "to");
      axis.log_scale = r.word("scale", {"log", "linear"}, "log") == "log";
      if (!from || !to) continue;
      if (*from > *to || (axis.log_scale && *from < 1)) {
        problems.push_back({locate(file, table->source()),
                            "random." + name + ": from must be at most to (and at least 1 for scale = \"log\")"});
        continue;
      }
      axis.from = *from;
      axis.to = *to;
      words = std::to_string(axis.count) + " values of " + name + " from " + std::to_string(*from) + " to " +
              std::to_string(*to) + (axis.log_scale ? " (log scale)" : "");
    }
    t.random.push_back(std::move(axis));
    t.random_text += (t.random_text.empty() ? "" : "; ") + words;
  }
}

// [anti_cheat]'s census keys: census, kernels = { min, max, deny }, stream, host_copies.
void read_census_policy(const std::string& file, table_reader& r, census_policy& c,
                        std::vector<lab_problem>& problems) {
  c.enabled = r.boolean("census", c.enabled);
  if (const toml::node* n = r.get("kernels")) {
    if (const toml::table* t = n->as_table()) {
      table_reader k(file, *t, "anti_cheat.kernels", problems);
      c.min_kernels = k.count("min", c.min_kernels, 0);
      if (t->get("max")) {
        const std::uint64_t max = k.count("max", 0, 1);
        if (max > 0 && max < c.min_kernels)
          k.problem(*t->get("max"), "(" + std::to_string(max) + ") must be at least kernels.min (" +
                                        std::to_string(c.min_kernels) + ")");
        else if (max > 0)
          c.max_kernels = max;
      }
      if (t->get("deny")) {
        c.deny = k.strings("deny");
        for (const std::string& pattern : c.deny)
          if (pattern.empty()) k.problem(*t->get("deny"), "holds an empty pattern, which matches no kernel name");
      }
    } else {
      r.problem(*n, "must be a table such as { min = 1, max = 8, deny = [\"*cub::*\"] }, not " + describe_node(*n));
    }
  }
  c.stream = r.word("stream", {"session", "joined", "any"}, c.stream);
  c.host_copies = r.word("host_copies", {"deny", "allow"}, c.host_copies);
}

void read_test(const std::string& file, const toml::table& table, const assignment_file& a, assignment_test& t,
               std::vector<lab_problem>& problems) {
  t.where = locate(file, table.source());
  table_reader r(file, table, "test", problems);
  t.name = r.text("name", "", true);
  t.kind = [&] {
    const std::string k = r.word("kind", test_kind_words(), "correctness", true);
    return k == "performance" ? test_kind::performance
           : k == "sanitizer" ? test_kind::sanitizer
                              : test_kind::correctness;
  }();
  t.visibility = r.word("visibility", {"visible", "hidden"}, "visible") == "hidden" ? test_visibility::hidden
                                                                                    : test_visibility::visible;
  t.points = r.number("points", 0, 0, true);
  t.description = r.text("description");
  if (const toml::node* n = r.get("params")) {
    if (const toml::table* p = n->as_table())
      t.params = entry_lines(*p);
    else
      r.problem(*n, "must be a table such as { n = 1000 }");
  }
  if (const toml::node* n = r.get("sweep")) {
    if (const toml::table* s = n->as_table())
      t.sweep = entry_lines(*s);
    else
      r.problem(*n, "must be a table such as { n = [1, 33, 1000] }");
  }
  if (const toml::node* n = r.get("random")) {
    if (const toml::table* rt = n->as_table()) {
      read_random(file, *rt, t, problems);
      t.drawn = draw_random_axes(t.random, default_draw_seed(a.id, t.name));
    } else
      r.problem(*n, "must be a table such as { n = { from = 1, to = \"64Mi\", count = 4 } }");
  }
  auto only_for = [&](const char* key, test_kind kind) {
    if (table.get(key) && t.kind != kind)
      problems.push_back({locate(file, table.get(key)->source()), std::string("test.") + key + " is for " +
                                                                      test_kind_name(kind) + " tests, and '" + t.name +
                                                                      "' is a " + test_kind_name(t.kind) + " test"});
  };
  only_for("partial", test_kind::correctness);
  only_for("metric", test_kind::performance);
  only_for("zero_at", test_kind::performance);
  only_for("full_at", test_kind::performance);
  only_for("requires", test_kind::performance);
  only_for("rounds", test_kind::performance);
  only_for("max_rounds", test_kind::performance);
  only_for("tool", test_kind::sanitizer);
  t.partial = r.boolean("partial", false);
  t.requires = r.strings("requires");
  t.metric = r.word("metric", {"pct_of_baseline", "pct_of_ceiling"}, "pct_of_baseline");
  t.zero_at = r.number("zero_at", 0, 0);
  t.full_at = r.number("full_at", 100, 0);
  if (t.kind == test_kind::performance && t.zero_at >= t.full_at)
    problems.push_back({t.where, "test '" + t.name + "': zero_at (" + value_text(param_value(t.zero_at)) +
                                     ") must be below full_at (" + value_text(param_value(t.full_at)) + ")"});
  t.rounds = int(r.number("rounds", t.rounds, 1));
  t.max_rounds = int(r.number("max_rounds", std::max(t.max_rounds, t.rounds), 1));
  if (t.max_rounds < t.rounds)
    problems.push_back({t.where, "test '" + t.name + "': max_rounds (" + std::to_string(t.max_rounds) +
                                     ") must be at least rounds (" + std::to_string(t.rounds) + ")"});
  t.tool = r.word("tool", {"memcheck", "racecheck", "synccheck", "initcheck"}, "", t.kind == test_kind::sanitizer);
}

}  // namespace

assignment_file parse_assignment(const std::filesystem::path& path) {
  const std::string file = path.string();
  assignment_file a;
  a.path = path;
  a.text = read_text(path, "assignment file");
  const toml::table doc = parse_toml(file, a.text);
  std::vector<lab_problem> problems;
  table_reader top(file, doc, "the assignment file", problems);
  // A table of the file, or an empty one.
  const auto table_of = [&](const std::string& key) -> const toml::table& {
    static const toml::table empty;
    const toml::table* t = top.section(key);
    return t ? *t : empty;
  };
  if (!doc.get("assignment"))
    problems.push_back(at_start(file,
                                "no [assignment] table: an assignment file starts with [assignment] id, title, "
                                "lab, slot and points"));
  {
    table_reader r(file, table_of("assignment"), "assignment", problems);
    a.id = r.text("id", "", true);
    if (!a.id.empty() && !std::all_of(a.id.begin(), a.id.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        }))
      problems.push_back({locate(file, doc["assignment"]["id"].node()->source()),
                          "assignment.id is lower-case letters, digits, '-' and '_' (it names folders)"});
    a.title = r.text("title", "", true);
    a.description = r.text("description");
    a.lab_as_written = r.text("lab", "", true);
    if (const toml::node* n = doc["assignment"]["lab"].node()) a.lab_where = locate(file, n->source());
    a.lab = path.parent_path() / a.lab_as_written;
    a.slot = r.text("slot", "", true);
    if (const toml::node* n = doc["assignment"]["slot"].node()) a.slot_where = locate(file, n->source());
    a.points = r.number("points", 0, 0, true);
  }
  {
    table_reader r(file, table_of("submission"), "submission", problems);
    a.submission_file = r.text("file");
    if (a.submission_file.find('/') != std::string::npos)
      problems.push_back({locate(file, doc["submission"]["file"].node()->source()),
                          "submission.file is a file name, without folders"});
    a.max_bytes = r.size("max_bytes", a.max_bytes, 1, "a positive size such as \"256Ki\"");
  }
  {
    table_reader r(file, table_of("build"), "build", problems);
    a.flags = r.strings("flags");
    a.deny_headers = r.strings("deny_headers");
    a.allow_libraries = r.strings("allow_libraries");
    a.compile_timeout_s = r.number("compile_timeout_s", a.compile_timeout_s, 1);
  }
  {
    table_reader r(file, table_of("limits"), "limits", problems);
    a.unit_timeout_s = r.number("unit_timeout_s", a.unit_timeout_s, 1);
    a.total_timeout_s = r.number("total_timeout_s", a.total_timeout_s, 1);
    a.max_processes = r.count("max_processes", a.max_processes, 0);
    a.max_file_bytes = r.size("max_file_bytes", a.max_file_bytes, 0, "a size such as \"64Mi\" (0: no limit)");
    a.cpu_time_s = r.count("cpu_time_s", a.cpu_time_s, 0);
  }
  {
    table_reader r(file, table_of("anti_cheat"), "anti_cheat", problems);
    a.roofline_margin = r.number("roofline_margin", a.roofline_margin, 1);
    read_census_policy(file, r, a.census, problems);
  }
  {
    table_reader r(file, table_of("feedback"), "feedback", problems);
    a.max_failures = int(r.number("max_failures", a.max_failures, 1));
  }
  for (const toml::table* t : top.sections("test")) {
    a.tests.emplace_back();
    read_test(file, *t, a, a.tests.back(), problems);
  }
  for (const toml::table* h : top.sections("hidden")) {
    table_reader r(file, *h, "hidden", problems);
    hidden_test ht;
    ht.name = r.text("name", "", true);
    ht.kind = r.word("kind", test_kind_words(), "correctness", true);
    ht.points = r.number("points", 0, 0, true);
    ht.description = r.text("description");
    a.hidden.push_back(std::move(ht));
  }
  if (a.tests.empty() && doc.get("assignment"))
    problems.push_back(at_start(file, "no [[test]]: an assignment needs at least one test"));
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
  top.finish();
  if (!problems.empty()) {
    sort_problems(problems);
    throw lab_file_error(problems);
  }
  return a;
}

std::uint64_t default_draw_seed(const std::string& assignment_id, const std::string& test) {
  return seed_of(assignment_id + "/" + test);
}

std::vector<std::string> draw_random_axes(const std::vector<random_axis>& axes, std::uint64_t seed) {
  std::uint64_t state = seed;
  std::vector<std::string> lines;
  for (const random_axis& axis : axes) {
    std::vector<std::int64_t> values;
    for (int i = 0; i < axis.count; ++i) {
      state = mix(state);
      if (!axis.choices.empty()) {
        values.push_back(axis.choices[state % axis.choices.size()]);
        continue;
      }
      const double u = double(state >> 11) / double(1ull << 53);
      const double from = double(axis.from), to = double(axis.to);
      const double v =
          axis.log_scale ? std::exp(std::log(from) + u * (std::log(to) - std::log(from))) : from + u * (to - from);
      values.push_back(std::clamp(static_cast<std::int64_t>(std::llround(v)), axis.from, axis.to));
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::string list;
    for (const std::int64_t v : values) list += (list.empty() ? "" : ", ") + std::to_string(v);
    lines.push_back(axis.name + " = [" + list + "]");
  }
  return lines;
}

std::string test_lab_text(const assignment_file& a, const assignment_test& t, const lab_file& base,
                          const std::string& variant, const std::optional<test_draw>& draw) {
  std::vector<std::string> sweep = t.sweep;
  for (const std::string& line : draw ? draw_random_axes(t.random, draw->axes_seed) : t.drawn) sweep.push_back(line);
  const toml::table& doc = base.tree->doc;
  auto key_of = [](const std::string& line) { return line.substr(0, line.find(" = ")); };
  std::ostringstream out;
  out << "# Test '" << t.name << "' of assignment " << a.id << " (" << a.path.filename().string() << "), made from "
      << base.path.filename().string() << ".\n";
  out << "[lab]\nplugin = " << toml::value<std::string>(base.plugin) << "\n";
  out << "title = " << toml::value<std::string>(a.title + ": " + t.name) << "\n";
  out << "variants = [" << toml::value<std::string>(variant) << "]\n";
  if (const toml::node* b = doc["lab"]["baseline"].node()) out << "baseline = " << toml_text(*b) << "\n";
  std::vector<std::string> params;
  if (const toml::table* p = doc["params"].as_table()) params = entry_lines(*p);
  for (const std::string& line : t.params) {
    const auto same =
        std::find_if(params.begin(), params.end(), [&](const std::string& l) { return key_of(l) == key_of(line); });
    if (same != params.end()) params.erase(same);
    params.push_back(line);
  }
  // A parameter the test sweeps is not also set.
  for (const std::string& line : sweep)
    params.erase(
        std::remove_if(params.begin(), params.end(), [&](const std::string& l) { return key_of(l) == key_of(line); }),
        params.end());
  out << "\n[params]\n";
  for (const std::string& line : params) out << line << "\n";
  out << "\n[sweep]\n";
  for (const std::string& line : sweep) out << line << "\n";
  std::vector<std::string> measure;
  if (const toml::table* m = doc["measure"].as_table()) measure = entry_lines(*m);
  // The test's own [measure] settings, over the lab file's.
  const auto set = [&](const std::string& key, const std::string& value) {
    measure.erase(
        std::remove_if(measure.begin(), measure.end(), [&](const std::string& l) { return key_of(l) == key; }),
        measure.end());
    measure.push_back(key + " = " + value);
  };
  if (t.kind != test_kind::performance) set("timing", "false");
  // A submission timed for points is verified again after its timed launches: one that computes on its
  // first launch only and skips the work afterwards fails instead of scoring.
  if (t.kind == test_kind::performance) set("verify_after_timing", "true");
  // The kernel census of each verified run, for the integrity checks; never under compute-sanitizer.
  set("census", a.census.enabled && t.kind != test_kind::sanitizer ? "true" : "false");
  // A hidden test drawn for a student: the lab's inputs from the student's seed. TOML integers are
  // signed 64-bit: the seed's top bit is dropped.
  if (draw) set("seed", std::to_string(draw->input_seed >> 1));
  out << "\n[measure]\n";
  for (const std::string& line : measure) out << line << "\n";
  return out.str();
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
