// Slot `transpose_tile` of the transpose lab: out = the transpose of `in`, through a shared-memory tile
// that makes both the global reads and the global writes coalesced, without bank conflicts.
//
// `in` is a rows x cols float matrix, row-major: element (r, c) at in[r * cols + c]. `out` is the
// cols x rows result: out[c * rows + r] = in[r * cols + c].
//
// How the lab calls it: one block per 32x32 tile of the input, 32 x 8 threads each (blockDim = (32, 8):
// a thread moves 4 elements of its tile, rows threadIdx.y, +8, +16, +24), grid = (ceil(cols / 32),
// ceil(rows / 32)): block (x, y) takes the tile whose top-left element is (32 * y, 32 * x). No dynamic
// shared memory: declare the tile in the kernel. rows and cols are 1 to 2^20 with rows * cols <= 2^32,
// so an element's index needs 64 bits and the tiles at the right and bottom edges may be partial (a
// 1000 x 3 matrix has one column of tiles, 3 columns wide): no element outside the matrix may be read
// or written.
//
// A warp reads 32 neighbours of an input row (coalesced) into a row of the tile; after a barrier, it
// reads a column of the tile and writes it as 32 neighbours of an output row (coalesced again). In a
// plain float tile[32][32] the 32 words of a column share one bank (a 32-way conflict): one word of
// padding per row moves each row one bank on.
extern "C" __global__ void transpose_tile(const float* in, float* out, unsigned rows, unsigned cols) {
  // BEGIN SOLUTION
  __shared__ float tile[32][33];
  const unsigned row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  // Input rows into tile rows: lane x reads (row0 + j, col0 + x).
  for (unsigned j = threadIdx.y; j < 32; j += blockDim.y) {
    const unsigned r = row0 + j, c = col0 + threadIdx.x;
    if (r < rows && c < cols) tile[j][threadIdx.x] = in[static_cast<unsigned long long>(r) * cols + c];
  }
  __syncthreads();
  // Tile columns into output rows: output row col0 + j holds input column col0 + j, and lane x
  // writes its element row0 + x, read from tile[x][j].
  for (unsigned j = threadIdx.y; j < 32; j += blockDim.y) {
    const unsigned r = row0 + threadIdx.x, c = col0 + j;
    if (r < rows && c < cols) out[static_cast<unsigned long long>(c) * rows + r] = tile[threadIdx.x][j];
  }
  // END SOLUTION
}
