// A class at scale (issue 32): the cards' ceilings agreeing, a student's job as a command line that
// names the secret's file and never its bytes, the Slurm scripts, and the gradebook's row of a student
// whose job left no finished report.
#include <gtest/gtest.h>

#include <algorithm>

#include "assignment/class_results.hpp"
#include "assignment/grade_jobs.hpp"
#include "assignment/grade_pool.hpp"
#include "assignment/slurm_batch.hpp"

namespace cudalab::host {
namespace {

TEST(GradeScale, CardsWhoseCeilingsAgreeWithinTheDriftGrade) {
  EXPECT_FALSE(ceilings_disagree({}, 0.05));
  EXPECT_FALSE(ceilings_disagree({{0, "H100", "0000:19:00.0", 3000}}, 0.05));
  EXPECT_FALSE(ceilings_disagree({{0, "H100", "a", 3000}, {1, "H100", "b", 3140}}, 0.05)) << "4.7% apart";
  const auto why = ceilings_disagree({{0, "H100", "a", 3000}, {1, "H100", "b", 2800}, {2, "H100", "c", 2990}}, 0.05);
  ASSERT_TRUE(why) << "7% apart";
  EXPECT_NE(why->find("GPU 0 (H100) copies 3000 GB/s, GPU 1 (H100) 2800 GB/s"), std::string::npos) << *why;
  EXPECT_NE(why->find("more than 5%"), std::string::npos) << *why;
  EXPECT_TRUE(ceilings_disagree({{0, "H100", "a", 0}, {1, "H100", "b", 0}}, 0.05)) << "nothing measured: no agreement";
}

TEST(GradeScale, ShellWordsReadBackUnchanged) {
  EXPECT_EQ(shell_word("/grades/alice/grade.json"), "/grades/alice/grade.json");
  EXPECT_EQ(shell_word("gradescope=/g/a b.json"), "'gradescope=/g/a b.json'");
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word("$(rm -rf ~)"), "'$(rm -rf ~)'");
  EXPECT_EQ(shell_word(""), "''");
}

grade_request class_request() {
  grade_request r;
  r.assignment = "/course/hw3/assignment.toml";
  r.submissions = "/course/hw3/submissions";
  r.out_dir = "/course/hw3/grades";
  r.secret_file = "/course/hw3/secret.key";
  r.settings.program = "/opt/cudalab/bin/cudalab";
  r.settings.search_path = {"/opt/cudalab/plugins"};
  r.settings.secret = std::string(32, '\x42');
  r.settings.colour = false;
  r.emit = {{"gradescope", "results.json"}};
  return r;
}

TEST(GradeScale, AJobIsOneStudentsGradeWithTheSecretsFileNotItsBytes) {
  const grade_request r = class_request();
  const grade_job job{"alice", "/course/hw3/submissions/alice.cu", "/course/hw3/grades/alice"};
  const std::vector<std::string> argv = job_argv(r.settings.program, r, job, 1);
  const std::vector<std::string> expected = {"/opt/cudalab/bin/cudalab",
                                             "grade",
                                             "/course/hw3/assignment.toml",
                                             "--submission",
                                             "/course/hw3/submissions/alice.cu",
                                             "--student",
                                             "alice",
                                             "--out",
                                             "/course/hw3/grades/alice",
                                             "--force",
                                             "--emit",
                                             "gradescope=/course/hw3/grades/alice/results.json",
                                             "--secret",
                                             "/course/hw3/secret.key",
                                             "--plugin-path",
                                             "/opt/cudalab/plugins",
                                             "--no-color",
                                             "--device",
                                             "1"};
  EXPECT_EQ(argv, expected);
  const auto slurm = job_argv(r.settings.program, r, job, -1);
  EXPECT_EQ(std::find(slurm.begin(), slurm.end(), "--device"), slurm.end()) << "a Slurm task's GPU is Slurm's choice";
}

TEST(GradeScale, TheArrayScriptAsksForAGpuPerTaskAndHoldsNoSecret) {
  grade_request r = class_request();
  r.partition = "gpu";
  r.sbatch_options = {"--account=cs101"};
  loaded_assignment a;
  a.file.id = "hw3";
  a.file.title = "Reduction";
  a.file.compile_timeout_s = 120;
  a.file.total_timeout_s = 900;
  const std::vector<grade_job> jobs = {{"alice", "/s/alice.cu", "/course/hw3/grades/alice"},
                                       {"o'brien", "/s/o'brien.cu", "/course/hw3/grades/o'brien"}};
  const std::string s = array_script(a, r, jobs, "/course/hw3/grades/.slurm/batch-1");
  EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
  for (const char* line :
       {"#SBATCH --array=0-1\n", "#SBATCH --gres=gpu:1\n", "#SBATCH --time=26\n", "#SBATCH --partition=gpu\n",
        "#SBATCH --account=cs101\n", "#SBATCH --output=/course/hw3/grades/.slurm/batch-1/task-%a.log\n",
        "  0) # alice\n", "--secret /course/hw3/secret.key", "--student 'o'\\''brien'"})
    EXPECT_NE(s.find(line), std::string::npos) << line << " in\n" << s;
  EXPECT_EQ(s.find(r.settings.secret), std::string::npos);
  EXPECT_EQ(task_minutes(a.file), 26) << "(120 + 900) s x 1.5";
  r.time_limit = "2:00:00";
  EXPECT_NE(array_script(a, r, jobs, "/b").find("#SBATCH --time=2:00:00\n"), std::string::npos);

  const std::string m = merge_script(a, r, "4242", "/course/hw3/grades/.slurm/batch-1");
  for (const char* line : {"#SBATCH --dependency=afterany:4242\n", "#SBATCH --partition=gpu\n",
                           "exec /opt/cudalab/bin/cudalab grade /course/hw3/assignment.toml --submissions "
                           "/course/hw3/submissions --out /course/hw3/grades --merge --secret /course/hw3/secret.key"})
    EXPECT_NE(m.find(line), std::string::npos) << line << " in\n" << m;
  EXPECT_EQ(m.find("--gres"), std::string::npos) << "the merge needs no GPU";
}

TEST(GradeScale, AStudentNotGradedHasARowThatSaysWhyAndNoPlace) {
  grade_report done;
  done.student.pseudonym = "brisk-otter-01";
  done.score = 7;
  done.max_score = 10;
  done.submission.sha256 = "abc";
  done.graded_at = "2026-11-26T10:00:00Z";
  grade_test t;
  t.id = t.name = "sizes";
  t.kind = "correctness";
  t.points = 7;
  t.status = grade_status::passed;
  done.tests = {t};
  done.device = device_info{};
  done.device->name = "NVIDIA H100 80GB HBM3";
  done.gpu = graded_gpu{1, "1", "0000:19:00.0", "node7"};
  done.leaderboard.push_back({"% of baseline", "sizes", 90, "desc", std::nullopt});
  grade_report none;
  none.student.pseudonym = "calm-yak-02";
  none.max_score = 10;
  const std::vector<class_entry> entries = {{"alice", done}, {"bob", none, "no grade.json: killed"}};
  const std::string csv = gradebook_csv(entries);
  EXPECT_NE(csv.find("\nalice,brisk-otter-01,7,10,7,,abc,2026-11-26T10:00:00Z,GPU 1 NVIDIA H100 80GB HBM3 "
                     "(0000:19:00.0) on node7,graded\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\nbob,calm-yak-02,,10,,,,,,not graded: no grade.json: killed\n"), std::string::npos) << csv;
  const std::vector<leaderboard_row> board = class_leaderboard(entries);
  ASSERT_EQ(board.size(), 1u);
  EXPECT_EQ(board[0].pseudonym, "brisk-otter-01");
}

}  // namespace
}  // namespace cudalab::host
