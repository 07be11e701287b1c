// CUDALAB_HD: marks index math shared by a kernel (nvcc) and its trace() (g++), so both use one source.
#pragma once

#if defined(__CUDACC__)
#define CUDALAB_HD __host__ __device__ __forceinline__
#else
#define CUDALAB_HD inline
#endif
