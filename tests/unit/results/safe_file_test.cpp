// The results folder's files (results/safe_file.hpp): whole files replaced at once, streamed files
// flushed whole, and every write checked - write errors made real with a file-size limit (RLIMIT_FSIZE).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <fstream>
#include <sstream>
#include <string>

#include "results/safe_file.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

// A fresh, empty folder for one test.
fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("cudalab_safe_file_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// While it lives, no file of this process grows beyond `bytes`: a write past that fails with EFBIG
// (SIGXFSZ, which would kill the process, is ignored meanwhile).
class file_size_limit {
 public:
  explicit file_size_limit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &before_);
    previous_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = before_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~file_size_limit() {
    setrlimit(RLIMIT_FSIZE, &before_);
    std::signal(SIGXFSZ, previous_);
  }
  file_size_limit(const file_size_limit&) = delete;
  file_size_limit& operator=(const file_size_limit&) = delete;

 private:
  rlimit before_{};
  void (*previous_)(int) = nullptr;
};

TEST(SafeFile, WritesAWholeFileAndReplacesAnEarlierOne) {
  const fs::path dir = scratch("whole");
  write_file_atomically(dir / "a.txt", "first\n");
  write_file_atomically(dir / "a.txt", "second\n");
  EXPECT_EQ(read_text(dir / "a.txt"), "second\n");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"a.txt"});  // no temporary file left
}

TEST(SafeFile, StreamedFileHasEachFlushAtOnce) {
  const fs::path dir = scratch("streamed");
  streamed_file out(dir / "s.jsonl");
  out << "{\"a\":1}\n" << std::flush;
  EXPECT_EQ(read_text(dir / "s.jsonl"), "{\"a\":1}\n");  // written before close()
  out << "{\"b\":2}\n";
  out.close();
  EXPECT_EQ(read_text(dir / "s.jsonl"), "{\"a\":1}\n{\"b\":2}\n");
}

TEST(SafeFile, redteam_f04_a_failed_write_is_an_error_and_leaves_no_file) {
  const fs::path dir = scratch("limit");
  const std::string big(10000, 'x');
  {
    const file_size_limit limit(4096);
    try {
      write_file_atomically(dir / "big.txt", big);
      FAIL() << "a 10000-byte file was written under a 4096-byte limit";
    } catch (const write_error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot write " + (dir / "big.txt").string() + ": File too large"),
                std::string::npos)
          << e.what();
    }
    write_file_atomically(dir / "small.txt", "fits\n");
  }
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"small.txt"});  // neither big.txt nor a temporary file
  // An earlier whole file stays as it was.
  write_file_atomically(dir / "small.txt", "earlier\n");
  {
    const file_size_limit limit(4096);
    EXPECT_THROW(write_file_atomically(dir / "small.txt", big), write_error);
  }
  EXPECT_EQ(read_text(dir / "small.txt"), "earlier\n");
}

TEST(SafeFile, redteam_f04_a_streamed_file_keeps_only_whole_flushes) {
  const fs::path dir = scratch("streamed_limit");
  const std::string line = std::string(999, 'x') + "\n";  // 1000 bytes: the fifth reaches past 4096
  {
    const file_size_limit limit(4096);
    streamed_file out(dir / "s.jsonl");
    for (int i = 0; i < 6; ++i) out << line << std::flush;
    EXPECT_TRUE(out.bad());
    try {
      out.close();
      FAIL() << "close() did not report the failed write";
    } catch (const write_error& e) {
      EXPECT_NE(std::string(e.what()).find("File too large"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(read_text(dir / "s.jsonl"), line + line + line + line);  // cut back to the fourth line
}

TEST(SafeFile, redteam_f04_a_folder_that_is_not_there_is_a_write_error) {
  const fs::path dir = scratch("missing") / "not_there";
  EXPECT_THROW(write_file_atomically(dir / "a.txt", "x"), write_error);
  EXPECT_THROW(streamed_file(dir / "s.jsonl"), write_error);
  EXPECT_THROW(create_folder_for(dir / "deeper" / "a.svg"), write_error);
}

// victim.txt beside the folder, which no write may change.
fs::path plant_victim(const fs::path& dir) {
  fs::path victim = dir.parent_path() / (dir.filename().string() + "_victim.txt");
  std::ofstream(victim) << "IMPORTANT\n";
  return victim;
}

TEST(SafeFile, redteam_f03_a_streamed_file_is_never_written_through_a_symlink) {
  const fs::path dir = scratch("streamed_symlink");
  const fs::path victim = plant_victim(dir);
  fs::create_symlink(victim, dir / "s.jsonl");
  fs::create_symlink(dir / "nowhere.txt", dir / "dangling.jsonl");
  std::ofstream(dir / "there.jsonl") << "earlier\n";
  EXPECT_THROW(streamed_file(dir / "s.jsonl"), write_error);
  EXPECT_THROW(streamed_file(dir / "dangling.jsonl"), write_error);
  EXPECT_THROW(streamed_file(dir / "there.jsonl"), write_error);  // created new, never an existing file
  EXPECT_EQ(read_text(victim), "IMPORTANT\n");
  EXPECT_FALSE(fs::exists(dir / "nowhere.txt"));
  EXPECT_EQ(read_text(dir / "there.jsonl"), "earlier\n");
}

TEST(SafeFile, redteam_f03_a_whole_file_replaces_a_symlink_never_its_target) {
  const fs::path dir = scratch("whole_symlink");
  const fs::path victim = plant_victim(dir);
  fs::create_symlink(victim, dir / "report.md");
  write_file_atomically(dir / "report.md", "# new\n");
  EXPECT_EQ(read_text(victim), "IMPORTANT\n");
  EXPECT_FALSE(fs::is_symlink(dir / "report.md"));
  EXPECT_EQ(read_text(dir / "report.md"), "# new\n");
}

TEST(SafeFile, redteam_f03_a_folder_that_is_a_symlink_is_not_used) {
  const fs::path dir = scratch("folder_symlink");
  fs::create_directories(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", dir / "plots");
  EXPECT_THROW(create_folder_for(dir / "plots" / "a.svg"), write_error);
  create_folder_for(dir / "real" / "a.svg");
  create_folder_for(dir / "real" / "b.svg");  // there already: fine
  EXPECT_TRUE(fs::is_directory(dir / "real"));
}

TEST(SafeFile, TemporaryNames) {
  EXPECT_TRUE(is_temporary_file_name(".results.json.tmp-a1b2c3"));
  EXPECT_FALSE(is_temporary_file_name("results.json"));
  EXPECT_FALSE(is_temporary_file_name("notes.tmp-1"));
}

}  // namespace
}  // namespace cudalab::host
