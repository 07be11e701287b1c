// Checksums of registered inputs (checksum.hpp): a mixed sum of 8-byte words, on the GPU or the CPU.
#include "device/checksum.hpp"

#include <cstring>

#include "cudalab/cuda_error.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/random.hpp"

namespace cudalab::host {

namespace {

/// The word at `position`, mixed by splitmix64's finaliser (random.hpp's mix64) at its position's
/// counter: neighbouring words and equal words at other places mix to unrelated values, so sums of them
/// rarely collide.
__host__ __device__ inline std::uint64_t mix(std::uint64_t word, std::uint64_t position) {
  return mix64(word + (position + 1) * counter_step);
}

/// The last bytes % 8 bytes as one word, zero-padded.
__host__ __device__ inline std::uint64_t tail_word(const unsigned char* p, std::size_t count) {
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < count; ++i) w |= std::uint64_t(p[i]) << (8 * i);
  return w;
}

/// Each thread sums mixed words of a grid-stride loop; warps combine by shuffles, then one atomic
/// per warp. Words are read as bytes when the buffer is not 8-byte aligned.
__global__ void checksum_kernel(const unsigned char* d_bytes, std::size_t bytes, unsigned long long* d_sum) {
  const std::size_t words = bytes / 8;
  const bool aligned = reinterpret_cast<std::uintptr_t>(d_bytes) % 8 == 0;
  std::uint64_t sum = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::uint64_t w =
        aligned ? reinterpret_cast<const std::uint64_t*>(d_bytes)[i] : tail_word(d_bytes + 8 * i, 8);
    sum += mix(w, i);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && bytes % 8 != 0)
    sum += mix(tail_word(d_bytes + 8 * words, bytes % 8), words);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(d_sum, static_cast<unsigned long long>(sum));
}

}  // namespace

std::uint64_t device_checksum(const void* d_ptr, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return 0;
  device_buffer<unsigned long long> d_sum(1);
  d_sum.fill_bytes(0, stream);
  constexpr int block = 256;
  const std::size_t words = bytes / 8 + 1;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((words + block - 1) / block, 4096));
  checksum_kernel<<<blocks, block, 0, stream>>>(static_cast<const unsigned char*>(d_ptr), bytes, d_sum.data());
  CUDALAB_CHECK_LAUNCH();
  unsigned long long sum = 0;
  d_sum.download(&sum, stream);
  CUDALAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return sum;
}

std::uint64_t host_checksum(const void* h_ptr, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(h_ptr);
  const std::size_t words = bytes / 8;
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w;
    std::memcpy(&w, p + 8 * i, 8);
    sum += mix(w, i);
  }
  if (bytes % 8 != 0) sum += mix(tail_word(p + 8 * words, bytes % 8), words);
  return sum;
}

}  // namespace cudalab::host
