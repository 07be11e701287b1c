// The vendor libraries a run's sandbox hides (slots/vendor_libraries.hpp): each family's files found by their real
// path, once, past symbolic links; the toolkit's own runtime and other libraries left; a family a plugin needs kept.
#include "slots/vendor_libraries.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;
using cudalab::host::vendor_library_files;

namespace {

fs::path fresh_folder(const std::string& name) {
  fs::path f = (fs::path(CUDALAB_BINARY_DIR) / "tests/work") / name;
  fs::remove_all(f);
  fs::create_directories(f);
  return f;
}

void touch(const fs::path& p) { std::ofstream(p) << "ELF"; }

bool has(const std::vector<std::string>& v, const fs::path& p) {
  return std::find(v.begin(), v.end(), fs::canonical(p).string()) != v.end();
}

}  // namespace

TEST(VendorLibraries, EachFamilysFilesAreFoundByTheirRealPathOnce) {
  const fs::path lib = fresh_folder("vendor_libraries/lib");
  touch(lib / "libcublas.so.13.1.0");
  fs::create_symlink("libcublas.so.13.1.0", lib / "libcublas.so.13");
  fs::create_symlink("libcublas.so.13", lib / "libcublas.so");
  touch(lib / "libcublasLt.so.13.1.0");
  touch(lib / "libcufft.so.12.0.0");
  touch(lib / "libnppif.so.13");
  touch(lib / "libcudart.so.13.0.1");
  touch(lib / "libcupti.so.13");
  touch(lib / "libnvrtc.so.13");
  const std::vector<std::string> found = vendor_library_files({lib, lib}, {});
  EXPECT_EQ(found.size(), 4u);
  EXPECT_TRUE(has(found, lib / "libcublas.so.13.1.0"));
  EXPECT_TRUE(has(found, lib / "libcublasLt.so.13.1.0"));
  EXPECT_TRUE(has(found, lib / "libcufft.so.12.0.0"));
  EXPECT_TRUE(has(found, lib / "libnppif.so.13"));
  EXPECT_FALSE(has(found, lib / "libcudart.so.13.0.1"));
}

TEST(VendorLibraries, AFamilyAPluginNeedsIsKeptWhole) {
  const fs::path lib = fresh_folder("vendor_libraries/needed");
  touch(lib / "libcublas.so.13.1.0");
  touch(lib / "libcublasLt.so.13.1.0");
  touch(lib / "libcurand.so.10");
  const std::vector<std::string> found = vendor_library_files({lib}, {"libcublas.so.13", "libc.so.6"});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(has(found, lib / "libcurand.so.10"));
}

TEST(VendorLibraries, AFolderThatIsNotThereGivesNothing) {
  EXPECT_TRUE(
      vendor_library_files({(fs::path(CUDALAB_BINARY_DIR) / "tests/work") / "vendor_libraries/none"}, {}).empty());
}
