// Slot `vector_copy` of the alignment lab: copy n floats from `in` to `out` with 16-byte loads and
// stores (float4), which a warp turns into 512-byte requests - four 128-byte lines - instead of the
// 128 bytes of a float per lane.
//
// How the lab calls it: one thread per float4, `block` threads per block (the lab's `block`
// parameter), grid = max(1, ceil((n / 4) / block)) blocks in x. Both arrays start 256-byte aligned.
// Every one of the n floats must be copied - n odd, n < 4 and n not a multiple of the block included -
// and nothing past out[n - 1] may be written.
extern "C" __global__ void vector_copy(const float* in, float* out, unsigned long long n) {
  // BEGIN SOLUTION
  const unsigned long long vectors = n / 4;
  const unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  if (i < vectors) reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
  // The last n % 4 floats (at most 3): one each for the first threads of the grid.
  const unsigned long long tail = vectors * 4;
  if (i < n - tail) out[tail + i] = in[tail + i];
  // END SOLUTION
}
