// Plugin loading: real and test plugins load with their specs; every failure path has a clear message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "plugin/loader.hpp"
#include "test_plugins.hpp"

namespace cudalab::host {
namespace {

namespace fs = std::filesystem;
const fs::path test_dir = CUDALAB_TEST_PLUGIN_DIR;
const fs::path faulty_dir = CUDALAB_FAULTY_PLUGIN_DIR;

TEST(PluginLoader, LoadsTestLabAndReadsSpec) {
  const auto& p = load_plugin("testlab", {test_dir});
  EXPECT_EQ(p.spec.name, "testlab");
  EXPECT_EQ(p.spec.baseline, "memcpy");
  EXPECT_EQ(p.spec.variants.size(), 3u);
  EXPECT_EQ(p.file.filename(), "cudalab_testlab.so");
}

TEST(PluginLoader, SamePluginLoadedTwiceIsOneInstance) {
  const auto& a = load_plugin("testlab", {test_dir});
  const auto& b = load_plugin_file(test_dir / "cudalab_testlab.so");
  EXPECT_EQ(a.instance.get(), b.instance.get());
}

TEST(PluginLoader, MissingPluginListsFoldersSearched) {
  try {
    load_plugin("no_such_lab", {test_dir, "/nonexistent/folder"});
    FAIL() << "expected plugin_error";
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::not_found);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("cudalab_no_such_lab.so"), std::string::npos) << msg;
    EXPECT_NE(msg.find("/nonexistent/folder"), std::string::npos) << msg;
  }
}

// Red-team F32: a name from a lab file or the command line can hold any byte; messages escape them.
TEST(PluginLoader, redteam_f32_ControlCharactersInANameAreEscaped) {
  const char raw[] = "testlab\0x\x1b[31m";
  try {
    load_plugin(std::string(raw, sizeof raw - 1), {test_dir});
    FAIL() << "expected plugin_error";
  } catch (const plugin_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'testlab\\x00x\\x1b[31m' is not a plugin name"), std::string::npos) << msg;
    for (const char c : msg) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << msg;
  }
}

TEST(PluginLoader, MissingFileIsNotFound) {
  try {
    load_plugin_file(test_dir / "cudalab_absent.so");
    FAIL();
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::not_found);
  }
}

TEST(PluginLoader, LibraryWithoutFactoryIsNotAPlugin) {
  try {
    load_plugin("not_a_plugin", {faulty_dir});
    FAIL();
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::not_a_plugin);
    EXPECT_NE(std::string(e.what()).find("not a cudalab plugin"), std::string::npos) << e.what();
  }
}

TEST(PluginLoader, AbiMismatchNamesBothVersions) {
  try {
    load_plugin("bad_abi", {faulty_dir});
    FAIL();
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::abi_mismatch);
    const std::string msg = e.what();
    EXPECT_NE(msg.find(std::to_string(CUDALAB_ABI_VERSION + 1000)), std::string::npos) << msg;
    EXPECT_NE(msg.find("ABI version " + std::to_string(CUDALAB_ABI_VERSION)), std::string::npos) << msg;
    EXPECT_NE(msg.find("cudalab_bad_abi.so"), std::string::npos) << msg;
  }
}

TEST(PluginLoader, ThrowingFactoryIsReported) {
  try {
    load_plugin("throwing_factory", {faulty_dir});
    FAIL();
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::factory_failed);
    EXPECT_NE(std::string(e.what()).find("constructor refuses on purpose"), std::string::npos) << e.what();
  }
}

TEST(PluginLoader, FileThatIsNotALibraryIsNotLoadable) {
  const fs::path junk = fs::temp_directory_path() / "cudalab_junk_test.so";
  {
    std::FILE* f = std::fopen(junk.c_str(), "w");
    std::fputs("not an ELF file", f);
    std::fclose(f);
  }
  try {
    load_plugin_file(junk);
    FAIL();
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::not_loadable);
  }
  fs::remove(junk);
}

TEST(PluginLoader, SearchPathOrderIsCliThenEnvironmentThenInstallFolder) {
  ::setenv("CUDALAB_PLUGIN_PATH", "/env/a:/env/b", 1);
  const auto path = plugin_search_path({"/cli/x:/cli/y", "/cli/z"});
  ::unsetenv("CUDALAB_PLUGIN_PATH");
  ASSERT_GE(path.size(), 6u);
  EXPECT_EQ(path[0], "/cli/x");
  EXPECT_EQ(path[1], "/cli/y");
  EXPECT_EQ(path[2], "/cli/z");
  EXPECT_EQ(path[3], "/env/a");
  EXPECT_EQ(path[4], "/env/b");
  EXPECT_EQ(path[5].filename(), "plugins");
}

TEST(PluginLoader, FindPluginFilesListsEachNameOnce) {
  const auto files = find_plugin_files({test_dir, test_dir});
  int testlabs = 0;
  for (const auto& f : files) testlabs += f.filename() == "cudalab_testlab.so";
  EXPECT_EQ(testlabs, 1);
}

// Red-team F26: a plugin hidden by one of the same name earlier on the search path is found out.
TEST(PluginLoader, redteam_f26_ShadowedPluginsAreReported) {
  const fs::path shadow = test_dir / "shadow";
  const fs::path real = CUDALAB_PLUGIN_BUILD_DIR;
  const plugin_files found = scan_plugin_files({shadow, real, shadow});
  ASSERT_EQ(found.shadowed.size(), 1u);
  EXPECT_EQ(found.shadowed[0].file, real / "cudalab_alignment.so");
  EXPECT_EQ(found.shadowed[0].used, shadow / "cudalab_alignment.so");
  EXPECT_EQ(std::count(found.used.begin(), found.used.end(), shadow / "cudalab_alignment.so"), 1);
}

// Each author's mistake in tests/fake_labs/mistakes is refused when the plugin loads, naming the lab
// and spec() - not a lab file.
TEST(PluginLoader, SpecMistakesAreRefusedNamingTheLabAndTheFunction) {
  const fs::path mistakes = fs::path(CUDALAB_TEST_PLUGIN_DIR) / "mistakes";
  const std::pair<const char*, const char*> cases[] = {
      {"bad_default", "bad_default: spec(): parameter 'n': its default is wrong: 'n' = 2048 is out of range [1, 1024]"},
      {"duplicate_variant", "duplicate_variant: spec(): variant 'copy' is declared twice"},
      {"bad_slots", "slot 'fill': its variant 'nope' is not one of the lab's variants"},
      {"bad_slots", "slot 'fill': its reference: fill.cu:2: the solution region begun here has no"},
      {"bad_slots", "slot 'copy_it': its entry '2copy' is not a C function name"},
      {"bad_slots", "slot 'copy_it': its reference has no \"// BEGIN SOLUTION\" region"},
      {"bad_slots", "slot 'copy_it': its file name 'dir/copy.cu' is not a plain NAME.cu"},
      {"bad_slots", "slot 'copy_it' is declared twice"},
  };
  for (const auto& [name, expected] : cases) {
    try {
      load_plugin(name, {mistakes});
      ADD_FAILURE() << name << " loaded";
    } catch (const plugin_error& e) {
      EXPECT_EQ(e.why(), plugin_failure::bad_spec) << name;
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

TEST(PluginLoader, AChangedBoundaryHeaderIsRefused) {
  try {
    load_plugin("stale_abi", {fs::path(CUDALAB_TEST_PLUGIN_DIR) / "mistakes"});
    FAIL() << "a plugin built against other boundary headers loaded";
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::abi_mismatch);
    EXPECT_NE(std::string(e.what()).find("built against other plugin headers"), std::string::npos) << e.what();
  }
}

// Red-team F2: load_plugin takes a name, never a path (a lab file is data; loading a library runs its
// code); a path is loaded only when a person or a test gives one (describe PATH, lab_under_test).
TEST(PluginLoader, redteam_f02_APathIsNotAName) {
  for (const std::string& path : {(test_dir / "cudalab_testlab.so").string(), std::string("cudalab_testlab.so"),
                                  std::string("../fake_labs/cudalab_testlab.so"), std::string("Testlab")}) {
    try {
      load_plugin(path, {test_dir});
      ADD_FAILURE() << path << " was loaded";
    } catch (const plugin_error& e) {
      EXPECT_EQ(e.why(), plugin_failure::not_a_name) << path;
      EXPECT_NE(std::string(e.what()).find("is not a plugin name"), std::string::npos) << e.what();
    }
  }
}

TEST(PluginLoader, redteam_f02_ANameCloseToAPluginIsSuggested) {
  try {
    load_plugin("Testlab", {test_dir});
    FAIL();
  } catch (const plugin_error& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'testlab'?"), std::string::npos) << e.what();
  }
  try {
    load_plugin("testlb", {test_dir});
    FAIL();
  } catch (const plugin_error& e) {
    EXPECT_EQ(e.why(), plugin_failure::not_found);
    EXPECT_NE(std::string(e.what()).find("no plugin 'testlb'; did you mean 'testlab'?"), std::string::npos) << e.what();
  }
}

TEST(PluginLoader, PathGivenOnTheCommandLineLoadsThatFile) {
  const auto& p = load_named_or_given_plugin((test_dir / "cudalab_testlab.so").string(), {});
  EXPECT_EQ(p.spec.name, "testlab");
  EXPECT_EQ(&load_named_or_given_plugin("testlab", {test_dir}), &p);
}

}  // namespace
}  // namespace cudalab::host
