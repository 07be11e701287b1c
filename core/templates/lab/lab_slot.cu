// Slot `scale` of the @LAB@ lab: out[i] = factor * in[i] for every i < n, one float per thread.
//
// How the lab calls it: one thread per element, `block` threads per block (the lab's `block`
// parameter), grid = ceil(n / block) blocks in x. n need not be a multiple of the block: a thread past
// the end writes nothing. The result must equal the lab's `scale` bit for bit (one multiply per element).
extern "C" __global__ void scale(const float* in, float* out, unsigned long long n, float factor) {
  // BEGIN SOLUTION
  const unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = factor * in[i];
  // END SOLUTION
}
