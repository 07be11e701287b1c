// --submission's argument: SLOT=FILE split at the first '=', and the built files told from sources.
#include <gtest/gtest.h>

#include <stdexcept>

#include "slots/submission.hpp"

using namespace cudalab::host;

TEST(SubmissionArg, SplitsAtTheFirstEqualsSign) {
  const submission_arg a = parse_submission_arg("vector_copy=dir/my=file.cu");
  EXPECT_EQ(a.slot, "vector_copy");
  EXPECT_EQ(a.file, "dir/my=file.cu");
  EXPECT_THROW(parse_submission_arg("vector_copy"), std::invalid_argument);
  EXPECT_THROW(parse_submission_arg("=file.cu"), std::invalid_argument);
  EXPECT_THROW(parse_submission_arg("slot="), std::invalid_argument);
}

TEST(SubmissionArg, BuiltFilesAreTold) {
  EXPECT_TRUE(is_built_submission("out/submissions/slot.cubin"));
  EXPECT_TRUE(is_built_submission("libx.so"));
  EXPECT_FALSE(is_built_submission("slot.cu"));
}
