// expect: crashed
// expect-sim-diagnosis: sim_misaligned_access
// expect-sim-cases: 7x17
// Bug: one warp per row writes y two columns at a time with one 8-byte float2 store, pairing columns
// (1, 2), (3, 4), ... so that column 0 is left for lane 0: every pair starts 4 bytes past an 8-byte
// boundary. A GPU stops the kernel at that store (cudaErrorMisalignedAddress); so does the simulator.
#include "../p01/reduce.cuh"

__global__ void softmax_pairs_from_column_1(const float* x, float* y, int cols) {
  const int lane = threadIdx.x;
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY, s = 0.0f;  // online: one pass over the row for both
  for (int c = lane; c < cols; c += 32) {
    const float grown = fmaxf(m, in[c]);
    s = (m == -INFINITY ? 0.0f : s * __expf(m - grown)) + __expf(in[c] - grown);
    m = grown;
  }
  const float row_m = warp_max(m);
  s = warp_sum(m == -INFINITY ? 0.0f : s * __expf(m - row_m));
  auto softmax = [&](int c) { return __expf(in[c] - row_m) / s; };
  for (int c = 1 + 2 * lane; c + 1 < cols; c += 64)
    *reinterpret_cast<float2*>(out + c) = make_float2(softmax(c), softmax(c + 1));
  if (lane == 0) out[0] = softmax(0);
  if (lane == 0 && cols % 2 == 0) out[cols - 1] = softmax(cols - 1);
}

void tiled_softmax(const float* x, float* y, int rows, int cols) {
  softmax_pairs_from_column_1<<<rows, 32>>>(x, y, cols);
}
