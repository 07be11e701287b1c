// grade.json, written and read in one place (grade_report.hpp).
#include "assignment/grade_report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "results/console_text.hpp"
#include "results/json.hpp"
#include "results/safe_file.hpp"

namespace cudalab::host {

using json = nlohmann::ordered_json;

namespace {

constexpr grade_status all_statuses[] = {grade_status::passed,    grade_status::failed, grade_status::error,
                                         grade_status::timed_out, grade_status::held,   grade_status::skipped};
constexpr const char* kinds[] = {"correctness", "performance", "sanitizer", "integrity"};
constexpr const char* severities[] = {"info", "warning", "blocking"};
constexpr const char* orders[] = {"asc", "desc"};

// A word of a closed set, or grade_report_error naming the field and the words it may be.
template <std::size_t N>
std::string one_of(const json& j, const char* field, const char* const (&words)[N]) {
  std::string v = j.at(field).get<std::string>();
  std::string allowed;
  for (const char* w : words) {
    if (v == w) return v;
    allowed += std::string(allowed.empty() ? "" : ", ") + w;
  }
  throw grade_report_error(std::string(field) + ": '" + v + "' is not one of " + allowed);
}

json ci_json(const std::optional<std::pair<double, double>>& ci) {
  return ci ? json::array({ci->first, ci->second}) : json(nullptr);
}

// `j` as [low, high] (null: none); `field` names it in the error.
std::optional<std::pair<double, double>> pair_of(const json& j, const char* field = "ci") {
  if (j.is_null()) return std::nullopt;
  if (!j.is_array() || j.size() != 2) throw grade_report_error(std::string(field) + ": not [low, high]");
  return std::make_pair(j[0].get<double>(), j[1].get<double>());
}

json build_json(const grade_build& b) {
  json diagnostics = json::array();
  for (const compile_diagnostic& d : b.diagnostics)
    diagnostics.push_back(
        {{"file", d.file}, {"line", d.line}, {"severity", severity_name(d.severity)}, {"message", d.message}});
  json j = {{"ok", b.ok}, {"command", b.command}, {"diagnostics", diagnostics}, {"seconds", b.seconds}};
  if (!b.lines.empty()) {  // only then: reports of builds without them read as before
    j["lines"] = json::array();
    for (const source_line& l : b.lines) j["lines"].push_back({{"line", l.line}, {"text", l.text}});
  }
  return j;
}

}  // namespace

const char* grade_status_name(grade_status s) {
  switch (s) {
    case grade_status::passed:
      return "passed";
    case grade_status::failed:
      return "failed";
    case grade_status::error:
      return "error";
    case grade_status::timed_out:
      return "timed_out";
    case grade_status::held:
      return "held";
    case grade_status::skipped:
      return "skipped";
  }
  return "skipped";
}

bool grade_build::denied() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const compile_diagnostic& d) { return d.severity == diagnostic_severity::denied; });
}

std::string grade_build::log() const {
  std::string text;
  for (const compile_diagnostic& d : diagnostics) text += d.text() + "\n";
  return text;
}

void to_json(json& j, const grade_report& r) {
  json tests = json::array(), flags = json::array(), board = json::array();
  for (const grade_test& t : r.tests) {
    json metric = nullptr;
    if (t.metric) {
      metric = {{"name", t.metric->name},
                {"median", t.metric->median},
                {"ci", ci_json(t.metric->ci)},
                {"rounds", t.metric->rounds}};
      if (t.metric->points_between)
        metric["points_between"] = json::array({t.metric->points_between->first, t.metric->points_between->second});
    }
    tests.push_back({{"id", t.id},
                     {"name", t.name},
                     {"kind", t.kind},
                     {"visibility", t.visibility == test_visibility::hidden ? "hidden" : "visible"},
                     {"points", t.points},
                     {"max_points", t.max_points},
                     {"status", grade_status_name(t.status)},
                     {"metric", metric},
                     {"message", t.message},
                     {"feedback_md", t.feedback_md},
                     {"parameters", t.parameters}});
  }
  for (const grade_flag& f : r.flags)
    flags.push_back({{"check", f.check}, {"severity", f.severity}, {"message", f.message}, {"test", f.test}});
  for (const leaderboard_value& l : r.leaderboard)
    board.push_back(
        {{"name", l.name}, {"test", l.test}, {"value", l.value}, {"order", l.order}, {"ci", ci_json(l.ci)}});
  const grade_build& b = r.submission.build;
  j = {{"schema_version", grade_schema_version},
       {"command", r.command},
       {"complete", r.complete},
       {"cudalab_version", r.cudalab_version},
       {"graded_at", r.graded_at},
       {"seconds", r.seconds},
       {"sandbox", r.sandboxed},
       {"assignment",
        {{"id", r.assignment.id},
         {"title", r.assignment.title},
         {"points", r.assignment.points},
         {"digest", r.assignment.digest}}},
       {"student", {{"id_hmac", r.student.id_hmac}, {"pseudonym", r.student.pseudonym}}},
       {"submission", {{"sha256", r.submission.sha256}, {"files", r.submission.files}, {"build", build_json(b)}}},
       {"device", r.device ? json(*r.device) : json(nullptr)},
       {"gpu", r.gpu ? json{{"index", r.gpu->index},
                            {"visible_devices", r.gpu->visible_devices},
                            {"pci_bus_id", r.gpu->pci_bus_id},
                            {"host", r.gpu->host}}
                     : json(nullptr)},
       {"ceilings", r.measured ? json(*r.measured) : json(nullptr)},
       {"tests", tests},
       {"flags", flags},
       {"score", r.score},
       {"max_score", r.max_score},
       {"leaderboard", board},
       {"staff", {{"seed_digests", r.staff.seed_digests}, {"input_digests", r.staff.input_digests}}},
       {"secret_fingerprint", r.secret_fingerprint},
       {"inputs_digest", r.inputs_digest},
       {"signature", r.signature}};
}

void from_json(const json& j, grade_report& r) {
  const int version = j.at("schema_version").get<int>();
  if (version > grade_schema_version)
    throw grade_report_error("schema_version " + std::to_string(version) + " is newer than this cudalab reads (" +
                             std::to_string(grade_schema_version) + ")");
  j.at("command").get_to(r.command);
  r.complete = j.value("complete", true);
  j.at("cudalab_version").get_to(r.cudalab_version);
  j.at("graded_at").get_to(r.graded_at);
  j.at("seconds").get_to(r.seconds);
  r.sandboxed = j.value("sandbox", false);
  const json& a = j.at("assignment");
  a.at("id").get_to(r.assignment.id);
  a.at("title").get_to(r.assignment.title);
  a.at("points").get_to(r.assignment.points);
  a.at("digest").get_to(r.assignment.digest);
  // Schema 2 had the id's plain SHA-256 (id_sha256), which anyone with a class list can invert: not read.
  r.student.id_hmac = version >= 3 ? j.at("student").at("id_hmac").get<std::string>() : std::string();
  j.at("student").at("pseudonym").get_to(r.student.pseudonym);
  const json& s = j.at("submission");
  s.at("sha256").get_to(r.submission.sha256);
  s.at("files").get_to(r.submission.files);
  const json& b = s.at("build");
  b.at("ok").get_to(r.submission.build.ok);
  b.at("command").get_to(r.submission.build.command);
  r.submission.build.diagnostics.clear();
  for (const json& d : b.at("diagnostics")) {
    const std::string severity = d.at("severity").get<std::string>();
    const std::optional<diagnostic_severity> known = parse_severity(severity);
    if (!known)
      throw grade_report_error("submission.build.diagnostics: severity '" + severity + "' is not one cudalab writes");
    r.submission.build.diagnostics.push_back(
        {d.at("file").get<std::string>(), d.at("line").get<int>(), *known, d.at("message").get<std::string>()});
  }
  b.at("seconds").get_to(r.submission.build.seconds);
  r.submission.build.lines.clear();
  if (b.contains("lines"))
    for (const json& l : b.at("lines")) r.submission.build.lines.push_back({l.at("line").get<int>(), l.at("text")});
  if (!j.at("device").is_null()) r.device = j.at("device").get<device_info>();
  if (j.contains("gpu") && !j.at("gpu").is_null()) {  // none in reports written before it was recorded
    const json& g = j.at("gpu");
    r.gpu = graded_gpu{g.at("index").get<int>(), g.at("visible_devices").get<std::string>(),
                       g.at("pci_bus_id").get<std::string>(), g.at("host").get<std::string>()};
  }
  if (!j.at("ceilings").is_null()) r.measured = j.at("ceilings").get<ceilings>();
  r.tests.clear();
  for (const json& t : j.at("tests")) {
    grade_test g;
    t.at("id").get_to(g.id);
    t.at("name").get_to(g.name);
    g.kind = one_of(t, "kind", kinds);
    const std::string visibility = t.at("visibility").get<std::string>();
    if (visibility != "visible" && visibility != "hidden")
      throw grade_report_error("visibility: '" + visibility + "' is not one of visible, hidden");
    g.visibility = visibility == "hidden" ? test_visibility::hidden : test_visibility::visible;
    t.at("points").get_to(g.points);
    t.at("max_points").get_to(g.max_points);
    const std::string status = t.at("status").get<std::string>();
    bool known = false;
    for (const grade_status word : all_statuses)
      if (status == grade_status_name(word)) g.status = word, known = true;
    if (!known)
      throw grade_report_error("status: '" + status +
                               "' is not one of passed, failed, error, timed_out, held, skipped");
    if (!t.at("metric").is_null()) {
      const json& m = t.at("metric");
      grade_metric metric;
      m.at("name").get_to(metric.name);
      m.at("median").get_to(metric.median);
      metric.ci = pair_of(m.at("ci"));
      m.at("rounds").get_to(metric.rounds);
      if (m.contains("points_between")) metric.points_between = pair_of(m.at("points_between"), "points_between");
      g.metric = metric;
    }
    t.at("message").get_to(g.message);
    t.at("feedback_md").get_to(g.feedback_md);
    t.at("parameters").get_to(g.parameters);
    r.tests.push_back(std::move(g));
  }
  r.flags.clear();
  for (const json& f : j.at("flags"))
    r.flags.push_back({f.at("check").get<std::string>(), one_of(f, "severity", severities),
                       f.at("message").get<std::string>(), f.value("test", "")});
  j.at("score").get_to(r.score);
  j.at("max_score").get_to(r.max_score);
  r.leaderboard.clear();
  for (const json& l : j.at("leaderboard")) {
    leaderboard_value v;
    l.at("name").get_to(v.name);
    l.at("test").get_to(v.test);
    l.at("value").get_to(v.value);
    v.order = one_of(l, "order", orders);
    v.ci = pair_of(l.at("ci"));
    r.leaderboard.push_back(std::move(v));
  }
  j.at("staff").at("seed_digests").get_to(r.staff.seed_digests);
  j.at("staff").at("input_digests").get_to(r.staff.input_digests);
  r.secret_fingerprint = j.value("secret_fingerprint", "");
  r.inputs_digest = j.value("inputs_digest", "");
  r.signature = j.value("signature", "");
}

std::string grade_report_json(const grade_report& r) { return json_text(json(r), 2) + "\n"; }

grade_report parse_grade_report(const std::string& text) {
  try {
    return json::parse(text).get<grade_report>();
  } catch (const json::exception& e) {
    throw grade_report_error(std::string("not a grade report: ") + e.what());
  } catch (const result_parse_error& e) {
    throw grade_report_error(std::string("not a grade report: ") + e.what());
  }
}

void write_grade_report(const std::filesystem::path& path, const grade_report& r) {
  write_file_atomically(path, grade_report_json(r));
}

std::string hidden_flag_message(const std::string& check) {
  // By the check alone: whatever its message says (sizes, bytes, kernel counts, speeds) is the test's.
  static const std::pair<const char*, const char*> words[] = {
      {"input_integrity", "a hidden test changed its input: the points where it did fail"},
      {"census.host_copies",
       "a hidden test copied between host and device while the submission ran, in a lab whose bytes stay in device "
       "memory"},
      {"census.stream",
       "a hidden test ran work the timing does not see (on another stream, or after the session stream had "
       "finished)"},
      {"census.deny", "a hidden test ran a kernel whose name a denied pattern matches"},
      {"census.kernels", "a hidden test ran fewer or more kernels than the assignment allows"},
      {"census", "a hidden test's kernel census is short or could not be taken"},
      {"roofline", "a hidden test ran faster than the memory system can move its bytes: held for review"},
      {"interference", "a hidden test's baseline ran apart between rounds: the GPU was not quiet"},
      {"verify_after_timing", "a hidden test's output was wrong after timing"},
      {"host_paced", "a hidden test's launcher was timed paced by the host: its time holds the host's round trips"},
  };
  for (const auto& [name, text] : words)
    if (check == name) return text;
  return "a hidden test raised it";
}

grade_report student_copy(const grade_report& r) {
  grade_report s = r;
  s.staff = {};
  std::vector<std::string> hidden;
  for (grade_test& t : s.tests)
    if (t.visibility == test_visibility::hidden) {
      hidden.push_back(t.id);
      t.parameters.clear();
      t.feedback_md.clear();
      if (t.metric) t.metric->points_between.reset();
    }
  for (grade_flag& f : s.flags)
    if (std::find(hidden.begin(), hidden.end(), f.test) != hidden.end()) f.message = hidden_flag_message(f.check);
  // Every text a student, a kit, a plugin or a compiler could have written, shown and never obeyed.
  const auto shown = [](std::string& text) { text = printable(text, text_lines::kept); };
  shown(s.assignment.id);
  shown(s.assignment.title);
  for (std::string& f : s.submission.files) shown(f);
  shown(s.submission.build.command);
  for (compile_diagnostic& d : s.submission.build.diagnostics) {
    shown(d.file);
    shown(d.message);
  }
  for (source_line& l : s.submission.build.lines) shown(l.text);
  if (s.device) shown(s.device->name);
  for (grade_test& t : s.tests)
    for (std::string* text : {&t.id, &t.name, &t.message, &t.feedback_md, &t.parameters}) shown(*text);
  for (grade_flag& f : s.flags)
    for (std::string* text : {&f.check, &f.message, &f.test}) shown(*text);
  for (leaderboard_value& l : s.leaderboard)
    for (std::string* text : {&l.name, &l.test}) shown(*text);
  return s;
}

}  // namespace cudalab::host
