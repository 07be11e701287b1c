// What a child of cudalab is told (child_plan.hpp): every field, any bytes in its texts, back exactly as
// it was; anything else - cut short, more than it says, a key it does not know, a lab text without its
// file - is refused.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "isolation/child_plan.hpp"

namespace cudalab::host {
namespace {

child_plan full_plan() {
  child_plan p;
  p.role = child_role::unit;
  p.parent_pid = 4242;
  p.plugin_paths = {"/opt/labs", "with space/and\nnewline"};
  p.sets = {"n=1Mi", "measure.repetitions=3"};
  p.variants = {"copy"};
  p.profile_file = "configs/quick.toml";
  p.profile_text = "[measure]\ntiming = false\n";
  p.labs = {{"labs/a.toml", "[lab]\nplugin = \"testlab\"\n"}, {"b.toml", std::string("a\0b\n12\n\xff", 8)}};
  p.submissions = {{"vector_copy", "/tmp/run/submissions/vector_copy.cubin"}};
  p.measured = ceilings{3004.5, 55.25, 54.0, 90.125, 7000.0};
  p.first_point = 3;
  p.last_point = 9;
  p.variant = "scale";
  p.baseline_gbps = 1234.5678;
  p.launchers_apart = true;
  return p;
}

TEST(ChildPlan, EveryFieldComesBackExactly) {
  const child_plan p = full_plan();
  const auto back = parse_child_plan(child_plan_text(p));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->role, child_role::unit);
  EXPECT_EQ(back->parent_pid, 4242);
  EXPECT_EQ(back->plugin_paths, p.plugin_paths);
  EXPECT_EQ(back->sets, p.sets);
  EXPECT_EQ(back->variants, p.variants);
  EXPECT_EQ(back->profile_file, p.profile_file);
  EXPECT_EQ(back->profile_text, p.profile_text);
  ASSERT_EQ(back->labs.size(), 2u);
  EXPECT_EQ(back->labs[1].file, "b.toml");
  EXPECT_EQ(back->labs[1].text, p.labs[1].text);
  ASSERT_EQ(back->submissions.size(), 1u);
  EXPECT_EQ(back->submissions[0].slot, "vector_copy");
  EXPECT_EQ(back->submissions[0].file, p.submissions[0].file);
  EXPECT_TRUE(back->launchers_apart);
  ASSERT_TRUE(back->measured);
  EXPECT_DOUBLE_EQ(back->measured->d2d_copy_gbps, 3004.5);
  EXPECT_DOUBLE_EQ(back->measured->l2_copy_gbps, 7000.0);
  EXPECT_EQ(back->first_point, 3);
  EXPECT_EQ(back->last_point, 9);
  EXPECT_EQ(back->variant, "scale");
  EXPECT_DOUBLE_EQ(back->baseline_gbps, 1234.5678);
  EXPECT_FALSE(back->device);
}

TEST(ChildPlan, AWholeRunKeepsItsFolderAndDevice) {
  child_plan p;
  p.role = child_role::whole_run;
  p.out_dir = "/tmp/work/run";
  p.device = 1;
  const auto back = parse_child_plan(child_plan_text(p));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->role, child_role::whole_run);
  EXPECT_EQ(back->out_dir, "/tmp/work/run");
  ASSERT_TRUE(back->device);
  EXPECT_EQ(*back->device, 1);
  EXPECT_FALSE(back->measured);
}

TEST(ChildPlan, AnythingElseIsRefused) {
  const std::string good = child_plan_text(full_plan());
  EXPECT_FALSE(parse_child_plan(""));
  EXPECT_FALSE(parse_child_plan("[lab]\nplugin = \"testlab\"\n"));
  EXPECT_FALSE(parse_child_plan(good.substr(0, good.size() - 1)));                  // cut short
  EXPECT_FALSE(parse_child_plan(good + "x"));                                       // more than it says
  EXPECT_FALSE(parse_child_plan(good + "colour 1\n1"));                             // a key it does not know
  EXPECT_FALSE(parse_child_plan("cudalab-child-plan 1\nlab_text 1\nx"));            // a text without its file
  EXPECT_FALSE(parse_child_plan("cudalab-child-plan 1\nrole 5\nchief"));            // no such role
  EXPECT_FALSE(parse_child_plan("cudalab-child-plan 1\nmeasured 7\n3000 55"));      // not five ceilings
  EXPECT_FALSE(parse_child_plan("cudalab-child-plan 1\nfirst_point 2\nx1"));        // not a number
  EXPECT_FALSE(parse_child_plan("cudalab-child-plan 1\nsubmission_file 3\na.so"));  // a file without its slot
}

TEST(ChildPlan, ReadFromADescriptor) {
  child_plan p;
  p.labs = {{"big.toml", std::string(200000, 'x')}};  // more than a pipe holds at once: written while read
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = child_plan_text(p);
  const pid_t writer = ::fork();
  if (writer == 0) {
    ::close(fds[0]);
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) ::_exit(1);
      done += std::size_t(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  const auto back = read_child_plan(fds[0]);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(writer, &status, 0);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->labs.size(), 1u);
  EXPECT_EQ(back->labs[0].text, p.labs[0].text);
}

}  // namespace
}  // namespace cudalab::host
