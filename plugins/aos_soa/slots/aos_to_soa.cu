// Slot `aos_to_soa` of the aos_soa lab: convert n records of `fields` floats (an array of structs) into
// one array per field (a struct of arrays), with coalesced reads AND coalesced writes.
//
// in: record i is in[i * fields .. i * fields + fields - 1], its field k at in[i * fields + k].
// out: field k of record i goes to out[k * field_stride + i]. The field arrays start field_stride
// floats apart (n rounded up to a multiple of 64, so each starts on a 256-byte boundary); the floats
// between n and field_stride of each array are not yours: leave them unwritten.
//
// How the lab calls it: one record per thread, `block` threads per block (the lab's `block`
// parameter: a multiple of 32, 32 to 1024), grid = ceil(n / block) blocks in x, so block b holds
// records b * block .. b * block + block - 1 (fewer in the last block when block does not divide n),
// and block * fields * 4 bytes of dynamic shared memory: one float per field of each of the block's
// records. fields is 1 to 8; n is 1 to 2^31, so indices into `in` need 64 bits.
//
// Thread t writing out[k * field_stride + i] for its own record i makes every write coalesced, but
// reading in[i * fields + k] directly puts a warp's lanes fields * 4 bytes apart. Read the block's
// records instead as one run of consecutive floats (coalesced) into shared memory, then let each
// thread take its record's fields from there. Mind the banks: with fields = 2, 4 or 8 the 32 lanes
// reading field k of 32 records hit the same few banks.
extern "C" __global__ void aos_to_soa(const float* in, float* out, unsigned long long n, int fields,
                                      unsigned long long field_stride) {
  // BEGIN SOLUTION
  extern __shared__ float tile[];
  const unsigned words = static_cast<unsigned>(fields);
  // Lanes reading field k of records t = 0..31 read tile words t * fields + k: `repeat` of them (the
  // largest power of two dividing fields) share each bank. XOR-ing the word's column with its row
  // number (w / 32) modulo `repeat` spreads them over all 32 banks; a row of 32 consecutive words is
  // only permuted, so the copy into the tile stays conflict-free too.
  const unsigned repeat = words & (0u - words);
  auto slot = [=](unsigned w) { return (w & ~31u) | ((w & 31u) ^ ((w >> 5) & (repeat - 1u))); };
  const unsigned long long first = static_cast<unsigned long long>(blockIdx.x) * blockDim.x;
  const unsigned count = n - first < blockDim.x ? static_cast<unsigned>(n - first) : blockDim.x;
  const float* records = in + first * words;
  for (unsigned w = threadIdx.x; w < count * words; w += blockDim.x) tile[slot(w)] = records[w];
  __syncthreads();
  if (threadIdx.x >= count) return;
  for (unsigned k = 0; k < words; ++k)
    out[k * field_stride + first + threadIdx.x] = tile[slot(threadIdx.x * words + k)];
  // END SOLUTION
}
