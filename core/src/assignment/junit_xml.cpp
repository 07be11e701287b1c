// JUnit XML from a grade report (lms_outputs.hpp), written with Boost.PropertyTree's write_xml
// (attributes under <xmlattr>, escaping done there). The layout is the common one of
// testmoapp/junitxml: testsuites > testsuite > testcase with failure, error or skipped, and properties.
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <map>
#include <sstream>

#include "assignment/lms_outputs.hpp"
#include "results/xml_text.hpp"

namespace cudalab::host {

namespace pt = boost::property_tree;

namespace {

struct suite_counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};

void set_counts(pt::ptree& node, const suite_counts& c) {
  node.put("<xmlattr>.tests", c.tests);
  node.put("<xmlattr>.failures", c.failures);
  node.put("<xmlattr>.errors", c.errors);
  node.put("<xmlattr>.skipped", c.skipped);
}

void add_property(pt::ptree& properties, const std::string& name, const std::string& value) {
  pt::ptree p;
  p.put("<xmlattr>.name", name);
  p.put("<xmlattr>.value", xml_chars(value));
  properties.add_child("property", p);
}

// The test case's outcome element: its name, its type attribute, and whether it counts as a failure,
// an error or a skip.
pt::ptree outcome(const std::string& type, const std::string& message, const std::string& body) {
  pt::ptree e(xml_chars(body));
  e.put("<xmlattr>.type", type);
  e.put("<xmlattr>.message", xml_chars(message));
  return e;
}

}  // namespace

std::string junit_xml(const grade_report& report) {
  const grade_report r = student_copy(report);
  const std::string id = xml_chars(r.assignment.id);
  // Suites in the order their kind first appears, the build first.
  std::vector<std::string> order = {"build"};
  std::map<std::string, pt::ptree> suites;
  std::map<std::string, suite_counts> counts;
  auto add_case = [&](const std::string& kind, pt::ptree testcase, const char* outcome_name, const pt::ptree& element) {
    if (!suites.count(kind) && kind != "build") order.push_back(kind);
    suite_counts& c = counts[kind];
    ++c.tests;
    if (outcome_name) {
      const std::string o = outcome_name;
      (o == "failure" ? c.failures : o == "error" ? c.errors : c.skipped)++;
      testcase.add_child(o, element);
    }
    suites[kind].add_child("testcase", testcase);
  };

  const grade_build& b = r.submission.build;
  pt::ptree build;
  build.put("<xmlattr>.classname", id + ".build");
  build.put("<xmlattr>.name", "build");
  build.put("<xmlattr>.time", b.seconds);
  add_case("build", build, b.ok ? nullptr : "failure",
           outcome("build_failed", "the submission did not build: " + b.command, b.log()));

  for (const grade_test& t : r.tests) {
    pt::ptree testcase, properties;
    testcase.put("<xmlattr>.classname", id + "." + xml_chars(t.kind));
    testcase.put("<xmlattr>.name", xml_chars(t.name));
    add_property(properties, "points", detail::points_text(t.points));
    add_property(properties, "max_points", detail::points_text(t.max_points));
    add_property(properties, "status", grade_status_name(t.status));
    add_property(properties, "visibility", t.visibility == test_visibility::hidden ? "hidden" : "visible");
    if (t.metric) add_property(properties, t.metric->name, detail::points_text(t.metric->median));
    testcase.add_child("properties", properties);
    const std::string message = detail::result_line(t);
    switch (t.status) {
      case grade_status::passed:
        add_case(t.kind, testcase, nullptr, {});
        break;
      case grade_status::failed:
      case grade_status::held:
        add_case(t.kind, testcase, "failure", outcome(grade_status_name(t.status), message, t.feedback_md));
        break;
      case grade_status::error:
      case grade_status::timed_out:
        add_case(t.kind, testcase, "error", outcome(grade_status_name(t.status), message, t.feedback_md));
        break;
      case grade_status::skipped: {
        pt::ptree skipped;
        skipped.put("<xmlattr>.message", xml_chars(message));
        add_case(t.kind, testcase, "skipped", skipped);
        break;
      }
    }
  }

  pt::ptree root, all;
  all.put("<xmlattr>.name", id);
  suite_counts total;
  for (const std::string& kind : order) {
    if (!suites.count(kind)) continue;
    const suite_counts& c = counts[kind];
    total.tests += c.tests, total.failures += c.failures, total.errors += c.errors, total.skipped += c.skipped;
  }
  set_counts(all, total);
  for (const std::string& kind : order) {
    if (!suites.count(kind)) continue;
    pt::ptree suite;
    suite.put("<xmlattr>.name", id + "." + xml_chars(kind));
    set_counts(suite, counts[kind]);
    for (auto& child : suites[kind]) suite.add_child(child.first, child.second);
    all.add_child("testsuite", suite);
  }
  root.add_child("testsuites", all);
  std::ostringstream out;
  pt::write_xml(out, root, pt::xml_writer_make_settings<std::string>(' ', 2, "utf-8"));
  return out.str();
}

}  // namespace cudalab::host
