// cudalab's own CUPTI declarations (device/cupti_api.hpp) against the toolkit's CUPTI headers: every record
// field the kernel census reads at the same offset, and the constants it passes with the same values. Built
// only where the headers are installed (CUDALAB_CUPTI_INCLUDE_DIR).
#include <cupti_activity.h>
#include <cupti_result.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <tuple>

#include "device/cupti_api.hpp"

namespace {

namespace ours = cudalab::host::cupti_api;

#define CUDALAB_EXPECT_SAME_FIELD(mine, theirs, field) \
  EXPECT_EQ(offsetof(mine, field), offsetof(theirs, field)) << #field;

TEST(CuptiLayout, KernelRecordReadsTheToolkitsFields) {
  using mine = ours::CUpti_ActivityKernel;
  using theirs = ::CUpti_ActivityKernel10;
  for (const std::size_t at : {offsetof(mine, kind), offsetof(theirs, kind)}) EXPECT_EQ(at, 0u);
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, registersPerThread)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, start)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, end)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, streamId)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, gridX)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, gridY)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, gridZ)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, blockX)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, blockY)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, blockZ)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, staticSharedMemory)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, dynamicSharedMemory)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, localMemoryPerThread)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, name)
  EXPECT_LE(sizeof(mine), sizeof(theirs));
}

TEST(CuptiLayout, CopyAndMemsetRecordsReadTheToolkitsFields) {
  for (const auto& [field, mine, memcpy6, ptop4] :
       {std::tuple{"copyKind", offsetof(ours::CUpti_ActivityMemcpy, copyKind),
                   offsetof(::CUpti_ActivityMemcpy6, copyKind), offsetof(::CUpti_ActivityMemcpyPtoP4, copyKind)},
        std::tuple{"bytes", offsetof(ours::CUpti_ActivityMemcpy, bytes), offsetof(::CUpti_ActivityMemcpy6, bytes),
                   offsetof(::CUpti_ActivityMemcpyPtoP4, bytes)},
        std::tuple{"start", offsetof(ours::CUpti_ActivityMemcpy, start), offsetof(::CUpti_ActivityMemcpy6, start),
                   offsetof(::CUpti_ActivityMemcpyPtoP4, start)},
        std::tuple{"end", offsetof(ours::CUpti_ActivityMemcpy, end), offsetof(::CUpti_ActivityMemcpy6, end),
                   offsetof(::CUpti_ActivityMemcpyPtoP4, end)},
        std::tuple{"streamId", offsetof(ours::CUpti_ActivityMemcpy, streamId),
                   offsetof(::CUpti_ActivityMemcpy6, streamId), offsetof(::CUpti_ActivityMemcpyPtoP4, streamId)}}) {
    EXPECT_EQ(mine, memcpy6) << field;
    EXPECT_EQ(mine, ptop4) << field;
  }
  using mine = ours::CUpti_ActivityMemset;
  using theirs = ::CUpti_ActivityMemset4;
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, bytes)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, start)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, end)
  CUDALAB_EXPECT_SAME_FIELD(mine, theirs, streamId)
}

TEST(CuptiLayout, ConstantsAreTheToolkits) {
  EXPECT_EQ(ours::CUPTI_SUCCESS, int(::CUPTI_SUCCESS));
  EXPECT_EQ(ours::CUPTI_ERROR_MAX_LIMIT_REACHED, int(::CUPTI_ERROR_MAX_LIMIT_REACHED));
  EXPECT_EQ(ours::CUPTI_ACTIVITY_KIND_MEMCPY, int(::CUPTI_ACTIVITY_KIND_MEMCPY));
  EXPECT_EQ(ours::CUPTI_ACTIVITY_KIND_MEMSET, int(::CUPTI_ACTIVITY_KIND_MEMSET));
  EXPECT_EQ(ours::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, int(::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  EXPECT_EQ(ours::CUPTI_ACTIVITY_KIND_MEMCPY2, int(::CUPTI_ACTIVITY_KIND_MEMCPY2));
  EXPECT_EQ(ours::CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, int(::CUPTI_ACTIVITY_MEMCPY_KIND_DTOH));
  EXPECT_EQ(ours::CUPTI_ACTIVITY_MEMCPY_KIND_PTOP, int(::CUPTI_ACTIVITY_MEMCPY_KIND_PTOP));
  EXPECT_EQ(ours::CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, unsigned(::CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
}

}  // namespace
