// The staff secret file: created 0600 whatever the umask, never over an existing file or through a
// symlink, read back as 32 bytes; refused when group or others may read it, or when it is a symlink.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "assignment/digests.hpp"
#include "assignment/staff_secret.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;

class StaffSecret : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cudalab_secret_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0);
  return st.st_mode & 07777;
}

TEST_F(StaffSecret, CreatedOwnerOnlyAndReadBack) {
  const mode_t old = ::umask(0);  // a permissive umask must not widen the mode
  const fs::path file = dir_ / staff_secret_file_name;
  const std::string hex = create_staff_secret(file);
  ::umask(old);
  EXPECT_EQ(mode_of(file), 0600u);
  EXPECT_EQ(hex.size(), 64u);
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, hex + "\n");
  const std::string bytes = read_staff_secret(file);
  ASSERT_EQ(bytes.size(), staff_secret_bytes);
  EXPECT_EQ(hex_text(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), hex);
  // Two secrets are not the same (RAND_bytes).
  EXPECT_NE(create_staff_secret(dir_ / "other.key"), hex);
}

TEST_F(StaffSecret, NeverReplacesAFile) {
  const fs::path file = dir_ / staff_secret_file_name;
  const std::string first = create_staff_secret(file);
  EXPECT_THROW(create_staff_secret(file), staff_secret_error);
  std::ifstream in(file);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, first);
}

TEST_F(StaffSecret, NeverFollowsASymlink) {
  const fs::path target = dir_ / "elsewhere", link = dir_ / staff_secret_file_name;
  fs::create_symlink(target, link);  // dangling: O_CREAT alone would create the target
  EXPECT_THROW(create_staff_secret(link), staff_secret_error);
  EXPECT_FALSE(fs::exists(target));
  create_staff_secret(target);
  EXPECT_THROW(read_staff_secret(link), staff_secret_error);
}

TEST_F(StaffSecret, ReadRefusesWhatOthersCanRead) {
  const fs::path file = dir_ / staff_secret_file_name;
  create_staff_secret(file);
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  try {
    read_staff_secret(file);
    FAIL() << "a group-readable secret was read";
  } catch (const staff_secret_error& e) {
    EXPECT_NE(std::string(e.what()).find("mode 0640"), std::string::npos) << e.what();
  }
}

TEST_F(StaffSecret, ReadRefusesWhatIsNotASecret) {
  const fs::path file = dir_ / "short.key";
  { std::ofstream(file) << "abc\n"; }
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_THROW(read_staff_secret(file), staff_secret_error);
  const fs::path bad = dir_ / "bad.key";
  { std::ofstream(bad) << std::string(63, 'a') << "g\n"; }
  fs::permissions(bad, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_THROW(read_staff_secret(bad), staff_secret_error);
  EXPECT_THROW(read_staff_secret(dir_ / "missing.key"), staff_secret_error);
}

}  // namespace
}  // namespace cudalab::host
