// `cudalab assignment init`'s template: what it reads from the lab file and the plugin's slot.
#include "assignment/assignment_template.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>

#include "assignment/assignment.hpp"
#include "assignment/assignment_file.hpp"
#include "plan/planning.hpp"
#include "test_plugins.hpp"

namespace {

namespace fs = std::filesystem;
using namespace cudalab::host;

// A lab file written into a fresh folder under the test's temporary folder, planned with the build's plugins.
struct planned_fixture {
  fs::path folder;
  planned_lab lab;
};

planned_fixture plan_text(const std::string& name, const std::string& text) {
  const fs::path folder = fs::temp_directory_path() / ("cudalab_assignment_template_" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  const fs::path file = folder / "lab.toml";
  std::ofstream(file) << text;
  auto plans = plan_lab_files({{file.string()}, cudalab::host::testing::test_plugin_path(), nullptr, {}, {}});
  return {folder, plans.front()};
}

// F21 of the 2026-11-26 red-team review: mapped_pinned's add_overlapped must enqueue on the streams
// the lab hands it, and the census's "session" policy gave every correct submission 0 points.
TEST(AssignmentTemplate, redteam26_f21_a_slot_handed_the_labs_streams_is_graded_joined) {
  const auto f = plan_text("f21", "[lab]\nplugin = \"mapped_pinned\"\n\n[params]\nn = \"64Ki\"\n");
  const std::string text = assignment_template(f.lab, "add_overlapped", f.folder / "hw" / "assignment.toml", "hw");
  EXPECT_NE(text.find("\nstream = \"joined\""), std::string::npos) << text;
  EXPECT_EQ(text.find("\nstream = \"session\""), std::string::npos) << text;
}

// The template written as hw/assignment.toml beside the fixture's lab file, and loaded as `validate`
// loads it: every test's lab file planned against the lab.
loaded_assignment load_template(const planned_fixture& f, const std::string& text) {
  fs::create_directories(f.folder / "hw");
  std::ofstream(f.folder / "hw" / "assignment.toml") << text;
  return load_assignment(f.folder / "hw" / "assignment.toml", cudalab::host::testing::test_plugin_path());
}

const assignment_test& test_named(const loaded_assignment& a, const std::string& name) {
  for (const assignment_test& t : a.file.tests)
    if (t.name == name) return t;
  throw std::invalid_argument("no test " + name);
}

// A test's lab file, planned.
planned_lab plan_test(const loaded_assignment& a, const assignment_test& t) {
  const std::string text = a.test_lab(t);
  return plan_lab_files({{(a.file.path.parent_path() / (t.name + ".toml")).string()},
                         cudalab::host::testing::test_plugin_path(),
                         nullptr,
                         {},
                         {},
                         {text}})
      .front();
}

TEST(AssignmentTemplate, AKernelSlotOnTheSessionStreamStaysThere) {
  const auto f = plan_text("session", "[lab]\nplugin = \"transpose\"\n");
  const std::string text = assignment_template(f.lab, "transpose_tile", f.folder / "hw" / "assignment.toml", "hw");
  EXPECT_NE(text.find("\nstream = \"session\""), std::string::npos) << text;
}

// Issue 34: a lab file with two size parameters and a sweep of block shapes. Every size parameter is
// odd at every point of the visible test (the two moving together, one up and one down), the block
// shapes are those of the lab file, the hidden test draws both sizes, and the sanitizer tests run small
// odd shapes at each block shape.
TEST(AssignmentTemplate, TwoSizeParametersAndABlockShapeSweep) {
  const auto f = plan_text("two_sizes",
                           "[lab]\nplugin = \"transpose\"\nbaseline = \"copy\"\n\n[params]\nrows = 16384\ncols = "
                           "16384\n\n[sweep]\nblock_rows = [4, 8]\n");
  const std::string text = assignment_template(f.lab, "transpose_tile", f.folder / "hw" / "assignment.toml", "hw-2d");
  EXPECT_NE(text.find("id = \"hw-2d\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("sweep = { zip = [{ rows = [1, 3, 31, 33, 257, 4099], cols = [4099, 257, 33, 31, 3, 1] }], "
                      "block_rows = [4, 8] }\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("random = { rows = { from = 1, to = 4096, count = 2, scale = \"log\" }, cols = { from = 1, to "
                      "= 4096, count = 2, scale = \"log\" } }\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tool = \"memcheck\"\nvisibility = \"visible\"\npoints = 5\nparams = { rows = 101, cols = "
                      "103 }\nsweep = { block_rows = [4, 8] }\n"),
            std::string::npos)
      << text;

  const loaded_assignment a = load_template(f, text);
  const planned_lab odd = plan_test(a, test_named(a, "odd-sizes"));
  ASSERT_EQ(odd.plan.point_count(), 12u);  // 6 shapes x 2 block shapes
  std::set<std::int64_t> rows, cols, shapes;
  for (std::uint64_t i = 0; i < odd.plan.point_count(); ++i) {
    const cudalab::params p = odd.plan.point(i);
    EXPECT_EQ(p.integer("rows") % 2, 1) << i;
    EXPECT_EQ(p.integer("cols") % 2, 1) << i;
    EXPECT_LE(p.integer("rows") * p.integer("cols"), 4099 * 257) << i;
    rows.insert(p.integer("rows"));
    cols.insert(p.integer("cols"));
    shapes.insert(p.integer("block_rows"));
  }
  EXPECT_EQ(rows, cols);
  EXPECT_EQ(rows.size(), 6u);
  EXPECT_EQ(shapes, (std::set<std::int64_t>{4, 8}));
  const planned_lab hidden = plan_test(a, test_named(a, "hidden-sizes"));
  EXPECT_EQ(hidden.plan.point_count(), 4u);  // 2 rows x 2 cols drawn
  const planned_lab memcheck = plan_test(a, test_named(a, "memcheck"));
  ASSERT_EQ(memcheck.plan.point_count(), 2u);
  EXPECT_EQ(memcheck.plan.point(0).integer("rows"), 101);
  EXPECT_EQ(memcheck.plan.point(0).integer("cols"), 103);
}

// A zipped group of the lab file that holds a block shape is kept whole, its axes in the order written;
// sweeps of other parameters (cycles) are the lab's lesson, not the slot's test.
TEST(AssignmentTemplate, AZippedGroupOfBlockShapesIsKeptWhole) {
  const auto f = plan_text("zipped_shapes",
                           "[lab]\nplugin = \"mapped_pinned\"\n\n[params]\nn = \"64Ki\"\n\n[sweep]\ncycles = [0, "
                           "8]\n\n[[sweep.zip]]\nunroll = [1, 4]\nblock = [64, 256]\n");
  const std::string text = assignment_template(f.lab, "add_overlapped", f.folder / "hw" / "assignment.toml", "hw");
  EXPECT_NE(text.find("sweep = { n = [1, 3, 31, 33, 257, 4099, 100003], zip = [{ unroll = [1, 4], block = [64, 256] "
                      "}] }\n"),
            std::string::npos)
      << text;
  const loaded_assignment a = load_template(f, text);
  const planned_lab odd = plan_test(a, test_named(a, "odd-sizes"));
  ASSERT_EQ(odd.plan.point_count(), 14u);
  EXPECT_EQ(odd.plan.point(1).integer("unroll"), 4);
  EXPECT_EQ(odd.plan.point(1).integer("block"), 256);
}

// A test's lab file from a [[test]] with a zipped sweep: the group's axes in the order written (TOML++
// sorts a table's keys by name), and its parameters, fixed in the lab file's [params], left out there.
TEST(TestLabText, AZippedGroupKeepsItsOrderAndItsParametersLeaveParams) {
  const auto f = plan_text("test_lab_text",
                           "[lab]\nplugin = \"transpose\"\n\n[params]\nrows = 16384\ncols = "
                           "16384\nblock_rows = 8\n");
  fs::create_directories(f.folder / "hw");
  std::ofstream(f.folder / "hw" / "assignment.toml")
      << "[assignment]\nid = \"hw\"\ntitle = \"t\"\nlab = \"../lab.toml\"\nslot = \"transpose_tile\"\npoints = "
         "10\n\n[[test]]\nname = \"shapes\"\nkind = \"correctness\"\npoints = 10\nsweep = { zip = [{ rows = [1, "
         "33], cols = [33, 1] }] }\n";
  const loaded_assignment a =
      load_assignment(f.folder / "hw" / "assignment.toml", cudalab::host::testing::test_plugin_path());
  const std::string text = a.test_lab(a.file.tests.at(0));
  const std::string params = text.substr(text.find("[params]"), text.find("[sweep]") - text.find("[params]"));
  EXPECT_EQ(params.find("\nrows ="), std::string::npos) << text;
  EXPECT_EQ(params.find("\ncols ="), std::string::npos) << text;
  EXPECT_NE(params.find("block_rows = 8"), std::string::npos) << text;
  EXPECT_LT(text.find("rows = [", text.find("[sweep]")), text.find("cols = [", text.find("[sweep]"))) << text;
  const planned_lab planned = plan_test(a, a.file.tests.at(0));
  ASSERT_EQ(planned.plan.point_count(), 2u);
  EXPECT_EQ(planned.plan.sweep.at(0).name, "rows");
  EXPECT_EQ(planned.plan.point(0).integer("cols"), 33);
}

}  // namespace
