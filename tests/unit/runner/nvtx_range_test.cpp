// The NVTX range around a variant's verified run: its name holds the result's key whatever the lab
// file's or the variant's name, and is found again in ncu's NVTX column.
#include <gtest/gtest.h>

#include "runner/nvtx_range.hpp"

namespace cudalab::host {
namespace {

TEST(NvtxRange, NameHoldsOnlyPlainCharacters) {
  const std::string name = range_name({"labs/reduction.toml", 3, "interleaved_strided"});
  EXPECT_EQ(name, "cudalab#labs%2Freduction%2Etoml#3#interleaved_strided");
}

TEST(NvtxRange, TheKeyComesBackWhateverTheNames) {
  for (const range_key& key : {range_key{"labs/a.toml", 0, "copy"},
                               range_key{"/tmp/my lab: \"x\" #1 100%.toml", 12345678901, "student:reduce_sum"},
                               range_key{"d\xC3\xA9j\xC3\xA0/\xff.toml", 7, "a,b"}, range_key{"", 0, "v"}}) {
    const auto back = find_range_name(range_name(key));
    ASSERT_TRUE(back.has_value()) << range_name(key);
    EXPECT_EQ(*back, key) << range_name(key);
  }
}

TEST(NvtxRange, FoundInNcusNvtxColumn) {
  // The push/pop column as ncu writes it: the thread, then each range of the stack quoted with its domain
  // and payload fields; CUB's own range (another domain) may sit on top of ours.
  const std::string column = "1  \"<default domain>:" + range_name({"labs/r.toml", 2, "cub"}) +
                             ":none:none:none:none:none:none\"  \"CCCL:cub::DeviceReduce::Sum:none:none:none:none:"
                             "none:none\"";
  const auto key = find_range_name(column);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(*key, (range_key{"labs/r.toml", 2, "cub"}));
}

TEST(NvtxRange, OtherNamesAreNotKeys) {
  for (const char* text : {"", "cudalab", "cudalab#", "cudalab#a#1", "cudalab#a#x#copy", "cudalab#a#1#",
                           "cudalab#a#1#b#c", "cudalab#a%2#1#copy", "cudalab#a%ZZ#1#copy", "my range"})
    EXPECT_FALSE(find_range_name(text).has_value()) << text;
  // A malformed one does not hide a good one after it.
  EXPECT_TRUE(find_range_name("cudalab#a#x#copy  cudalab#a#1#copy").has_value());
}

TEST(NvtxRange, FilterSelectsPushPopRangesByTheirPrefix) {
  EXPECT_EQ(std::string(range_filter), "regex:cudalab#.*/");
  nvtx_range none("");  // pushes nothing; without a tool attached pushing does nothing either
  nvtx_range some("cudalab#a#0#copy");
}

}  // namespace
}  // namespace cudalab::host
