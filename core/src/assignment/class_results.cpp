// A class's gradebook and leaderboard (class_results.hpp).
#include "assignment/class_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "results/csv_field.hpp"
#include "results/json.hpp"

namespace cudalab::host {

namespace {

std::string number_text(double v) { return fmt::format("{:g}", std::round(v * 100) / 100); }

bool has_blocking_flag(const grade_report& r) {
  return std::any_of(r.flags.begin(), r.flags.end(), [](const grade_flag& f) { return f.severity == "blocking"; });
}

bool all_correct(const grade_report& r) {
  return std::all_of(r.tests.begin(), r.tests.end(),
                     [](const grade_test& t) { return t.kind != "correctness" || t.status == grade_status::passed; });
}

// The card that graded `r`, as the gradebook's gpu column names it ("" when none ran).
std::string gpu_text(const grade_report& r) {
  if (!r.device) return "";
  std::string text = r.gpu && r.gpu->index >= 0 ? fmt::format("GPU {} ", r.gpu->index) : std::string();
  text += r.device->name;
  if (r.gpu && !r.gpu->pci_bus_id.empty()) text += " (" + r.gpu->pci_bus_id + ")";
  if (r.gpu && !r.gpu->host.empty()) text += " on " + r.gpu->host;
  return text;
}

// A student's id as its gradebook field: csv_field, and an id of digits that a spreadsheet would read as a
// number and show otherwise - one with a leading zero (00123 becomes 123), or more than 15 digits (the
// rest become zeros) - behind a ', as csv_field keeps a formula as text.
std::string id_field(const std::string& id) {
  const bool digits = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
  const bool changed_as_number = digits && ((id.size() > 1 && id[0] == '0') || id.size() > 15);
  return csv_field(changed_as_number ? "'" + id : id);
}

}  // namespace

bool held_for_review(const grade_report& r) {
  return has_blocking_flag(r) || std::any_of(r.tests.begin(), r.tests.end(),
                                             [](const grade_test& t) { return t.status == grade_status::held; });
}

std::string gradebook_csv(const std::vector<class_entry>& entries) {
  std::vector<std::string> tests;  // every test id that carries points, in the first report's order
  for (const class_entry& e : entries)
    for (const grade_test& t : e.report.tests)
      if (t.kind != "integrity" && std::find(tests.begin(), tests.end(), t.id) == tests.end()) tests.push_back(t.id);
  std::string out = "student_id,pseudonym,score,max_score";
  for (const std::string& t : tests) out += "," + csv_field(t);
  out += ",flags,submission_sha256,graded_at,gpu,status\n";
  for (const class_entry& e : entries) {
    const grade_report& r = e.report;
    if (!e.not_graded.empty()) {  // no points to give: the row says why, and a batch run again grades it
      out += id_field(e.student) + "," + csv_field(r.student.pseudonym) + ",," + number_text(r.max_score) +
             std::string(tests.size(), ',') + ",,,,," + csv_field("not graded: " + e.not_graded) + "\n";
      continue;
    }
    out += id_field(e.student) + "," + csv_field(r.student.pseudonym) + "," + number_text(r.score) + "," +
           number_text(r.max_score);
    for (const std::string& id : tests) {
      const auto t = std::find_if(r.tests.begin(), r.tests.end(), [&](const grade_test& g) { return g.id == id; });
      out += "," + (t == r.tests.end() ? std::string() : number_text(t->points));
    }
    std::string flags;
    for (const grade_flag& f : r.flags) flags += (flags.empty() ? "" : ";") + f.check;
    out += "," + csv_field(flags) + "," + r.submission.sha256 + "," + csv_field(r.graded_at) + "," +
           csv_field(gpu_text(r)) + ",graded\n";
  }
  return out;
}

std::vector<leaderboard_row> class_leaderboard(const std::vector<class_entry>& entries) {
  std::vector<leaderboard_row> ranked, review;
  for (const class_entry& e : entries) {
    const grade_report& r = e.report;
    if (!e.not_graded.empty() || !all_correct(r)) continue;
    leaderboard_row row;
    row.pseudonym = r.student.pseudonym;
    row.device = r.device ? r.device->name : "";
    if (!r.leaderboard.empty()) {
      const leaderboard_value& v = r.leaderboard.front();
      row.test = v.test;
      row.name = v.name;
      row.value = v.value;
      row.ci = v.ci;
    }
    if (held_for_review(r)) {
      row.status = "under_review";
      review.push_back(std::move(row));
    } else if (!r.leaderboard.empty()) {
      row.status = "ok";
      ranked.push_back(std::move(row));
    }
  }
  // Ties and the rows under review by pseudonym: the batch's order is its students' ids in order, and
  // with a class list and one's own row, any order that follows it turns pseudonyms back into names.
  std::sort(ranked.begin(), ranked.end(), [](const leaderboard_row& a, const leaderboard_row& b) {
    return a.value != b.value ? a.value > b.value : a.pseudonym < b.pseudonym;
  });
  std::sort(review.begin(), review.end(),
            [](const leaderboard_row& a, const leaderboard_row& b) { return a.pseudonym < b.pseudonym; });
  // A new band starts where a row's interval no longer reaches the band's best row's.
  std::pair<double, double> band_top{0, 0};
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    leaderboard_row& row = ranked[i];
    row.rank = int(i) + 1;
    const std::pair<double, double> ci = row.ci.value_or(std::make_pair(row.value, row.value));
    if (i == 0 || ci.second < band_top.first) {
      row.band = i == 0 ? 1 : ranked[i - 1].band + 1;
      band_top = ci;
    } else {
      row.band = ranked[i - 1].band;
    }
  }
  ranked.insert(ranked.end(), review.begin(), review.end());
  return ranked;
}

std::string leaderboard_json(const std::string& assignment_id, const std::vector<leaderboard_row>& rows) {
  nlohmann::ordered_json j = {{"assignment", assignment_id}, {"rows", nlohmann::ordered_json::array()}};
  for (const leaderboard_row& r : rows)
    j["rows"].push_back(
        {{"rank", r.rank},
         {"band", r.band},
         {"pseudonym", r.pseudonym},
         {"test", r.test},
         {"name", r.name},
         {"value", r.value},
         {"ci", r.ci ? nlohmann::ordered_json::array({r.ci->first, r.ci->second}) : nlohmann::ordered_json(nullptr)},
         {"device", r.device},
         {"status", r.status}});
  return json_text(j, 2) + "\n";
}

std::string leaderboard_markdown(const std::string& title, const std::vector<leaderboard_row>& rows) {
  std::string md = "# " + title + ": leaderboard\n\n";
  if (rows.empty()) return md + "No submission passes every correctness test yet.\n";
  md += "| rank | band | who | value | 95% CI | device |\n|---:|---:|---|---:|---|---|\n";
  for (const leaderboard_row& r : rows) {
    const std::string ci = r.ci ? fmt::format("{:.1f}-{:.1f}", r.ci->first, r.ci->second) : "";
    if (r.status == "ok")
      md += fmt::format("| {} | {} | {} | {:.1f} {} | {} | {} |\n", r.rank, r.band, r.pseudonym, r.value, r.name, ci,
                        r.device);
    else
      md += fmt::format("| - | - | {} | under review | | {} |\n", r.pseudonym, r.device);
  }
  md += "\nRows in one band have overlapping confidence intervals: their order is within the noise.\n";
  return md;
}

}  // namespace cudalab::host
