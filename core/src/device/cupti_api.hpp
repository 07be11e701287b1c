// The few CUPTI declarations the kernel census uses, declared here so that cudalab builds without CUPTI's
// headers and runs without its library: libcupti is loaded at run time (device/kernel_census). Each is as
// the CUPTI API reference declares it (cupti_activity.h, cupti_result.h), under CUPTI's own names. The
// activity records are declared up to the last field the census reads: that prefix is the same in every
// version of the records since CUDA 11 (CUpti_ActivityKernel4 ... 10, CUpti_ActivityMemcpy4 ... 6,
// CUpti_ActivityMemset2 ... 4, CUpti_ActivityMemcpyPtoP2 ... 4); tests/unit/device/cupti_api_test checks each
// offset against the toolkit's headers where they are installed.
#pragma once

#include <cstddef>
#include <cstdint>

// The driver's opaque types, declared where cuda.h and the runtime's headers declare them (the global
// namespace), so that a cudaStream_t is a CUstream here too.
struct CUctx_st;
struct CUstream_st;

namespace cudalab::host::cupti_api {

using CUptiResult = int;  ///< an enum: CUPTI_SUCCESS is 0
constexpr CUptiResult CUPTI_SUCCESS = 0;
constexpr CUptiResult CUPTI_ERROR_MAX_LIMIT_REACHED = 12;  ///< cuptiActivityGetNextRecord: no more records

using CUpti_ActivityKind = int;  ///< an enum
constexpr CUpti_ActivityKind CUPTI_ACTIVITY_KIND_MEMCPY = 1;
constexpr CUpti_ActivityKind CUPTI_ACTIVITY_KIND_MEMSET = 2;
constexpr CUpti_ActivityKind CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL = 10;  ///< does not serialise kernels
constexpr CUpti_ActivityKind CUPTI_ACTIVITY_KIND_MEMCPY2 = 22;            ///< peer-to-peer copies

/// CUpti_ActivityMemcpyKind: a memcpy record's copyKind.
enum : std::uint8_t {
  CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN = 0,
  CUPTI_ACTIVITY_MEMCPY_KIND_HTOD = 1,
  CUPTI_ACTIVITY_MEMCPY_KIND_DTOH = 2,
  CUPTI_ACTIVITY_MEMCPY_KIND_HTOA = 3,
  CUPTI_ACTIVITY_MEMCPY_KIND_ATOH = 4,
  CUPTI_ACTIVITY_MEMCPY_KIND_ATOA = 5,
  CUPTI_ACTIVITY_MEMCPY_KIND_ATOD = 6,
  CUPTI_ACTIVITY_MEMCPY_KIND_DTOA = 7,
  CUPTI_ACTIVITY_MEMCPY_KIND_DTOD = 8,
  CUPTI_ACTIVITY_MEMCPY_KIND_HTOH = 9,
  CUPTI_ACTIVITY_MEMCPY_KIND_PTOP = 10,
};

constexpr std::uint32_t CUPTI_ACTIVITY_FLAG_FLUSH_FORCED = 1;

// CUPTI packs its records and aligns them to 8 bytes (PACKED_ALIGNMENT in cupti_common.h).
#define CUDALAB_CUPTI_RECORD __attribute__((__packed__)) __attribute__((aligned(8)))

/// CUpti_Activity: what every record starts with.
struct CUDALAB_CUPTI_RECORD CUpti_Activity {
  CUpti_ActivityKind kind;
};

/// CUpti_ActivityKernel10 (and 4 to 9) up to `name`: CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL.
struct CUDALAB_CUPTI_RECORD CUpti_ActivityKernel {
  CUpti_ActivityKind kind;
  std::uint8_t cacheConfig;
  std::uint8_t sharedMemoryConfig;
  std::uint16_t registersPerThread;
  int partitionedGlobalCacheRequested;
  int partitionedGlobalCacheExecuted;
  std::uint64_t start;  ///< ns; 0 with end 0: no timestamps
  std::uint64_t end;
  std::uint64_t completed;
  std::uint32_t deviceId;
  std::uint32_t contextId;
  std::uint32_t streamId;
  std::int32_t gridX, gridY, gridZ;
  std::int32_t blockX, blockY, blockZ;
  std::int32_t staticSharedMemory;
  std::int32_t dynamicSharedMemory;
  std::uint32_t localMemoryPerThread;
  std::uint32_t localMemoryTotal;
  std::uint32_t correlationId;
  std::int64_t gridId;
  const char* name;  ///< mangled; CUPTI's, valid until it detaches
};

/// CUpti_ActivityMemcpy6 (and 4, 5) and CUpti_ActivityMemcpyPtoP4 (and 2, 3) up to `streamId`.
struct CUDALAB_CUPTI_RECORD CUpti_ActivityMemcpy {
  CUpti_ActivityKind kind;
  std::uint8_t copyKind;  ///< CUPTI_ACTIVITY_MEMCPY_KIND_*
  std::uint8_t srcKind;
  std::uint8_t dstKind;
  std::uint8_t flags;
  std::uint64_t bytes;
  std::uint64_t start;
  std::uint64_t end;
  std::uint32_t deviceId;
  std::uint32_t contextId;
  std::uint32_t streamId;
};

/// CUpti_ActivityMemset4 (and 2, 3) up to `streamId`.
struct CUDALAB_CUPTI_RECORD CUpti_ActivityMemset {
  CUpti_ActivityKind kind;
  std::uint32_t value;
  std::uint64_t bytes;
  std::uint64_t start;
  std::uint64_t end;
  std::uint32_t deviceId;
  std::uint32_t contextId;
  std::uint32_t streamId;
};

#undef CUDALAB_CUPTI_RECORD

using CUcontext = ::CUctx_st*;    ///< opaque (cuda.h's CUcontext)
using CUstream = ::CUstream_st*;  ///< opaque (cuda.h's CUstream, the runtime's cudaStream_t)

using CUpti_BuffersCallbackRequestFunc = void (*)(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords);
using CUpti_BuffersCallbackCompleteFunc = void (*)(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer,
                                                   std::size_t size, std::size_t validSize);

// The functions, as pointer types for dlsym.
using cuptiGetVersion_fn = CUptiResult (*)(std::uint32_t* version);
using cuptiGetResultString_fn = CUptiResult (*)(CUptiResult result, const char** str);
using cuptiActivityRegisterCallbacks_fn = CUptiResult (*)(CUpti_BuffersCallbackRequestFunc requested,
                                                          CUpti_BuffersCallbackCompleteFunc completed);
using cuptiActivityEnable_fn = CUptiResult (*)(CUpti_ActivityKind kind);
using cuptiActivityDisable_fn = CUptiResult (*)(CUpti_ActivityKind kind);
using cuptiActivityFlushAll_fn = CUptiResult (*)(std::uint32_t flag);
using cuptiActivityGetNextRecord_fn = CUptiResult (*)(std::uint8_t* buffer, std::size_t validBufferSizeBytes,
                                                      CUpti_Activity** record);
using cuptiActivityGetNumDroppedRecords_fn = CUptiResult (*)(CUcontext context, std::uint32_t streamId,
                                                             std::size_t* dropped);
using cuptiGetStreamIdEx_fn = CUptiResult (*)(CUcontext context, CUstream stream, std::uint8_t perThreadStream,
                                              std::uint32_t* streamId);
using cuptiFinalize_fn = CUptiResult (*)();

}  // namespace cudalab::host::cupti_api
