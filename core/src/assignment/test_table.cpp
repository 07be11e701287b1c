// One [[test]] table of an assignment file, read into an assignment_test: its kind and points, its
// parameters and sweep as lines for its lab file, its random axes drawn with the file's own seed, and the
// keys that only some kinds of test may have.
#include "assignment/test_table.hpp"

#include <algorithm>
#include <optional>

namespace cudalab::host {
namespace {

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

}  // namespace

assignment_test read_test_table(const std::string& file, const toml::table& table, const std::string& assignment_id,
                                std::vector<lab_problem>& problems) {
  assignment_test t;
  t.where = locate(file, table.source());
  table_reader r(file, table, "test", problems);
  t.name = r.text("name", "", true);
  t.kind = r.choice("kind", test_kind_names(), test_kind::correctness, true);
  t.visibility = r.choice("visibility", {"visible", "hidden"}, test_visibility::visible);
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
      t.drawn = draw_random_axes(t.random, default_draw_seed(assignment_id, t.name));
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
  return t;
}

}  // namespace cudalab::host
