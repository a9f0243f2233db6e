// expect: failed
// expect-diagnosis: nan_output
// expect-sim-cases: 1x1
// Bug: the (max, sum) merge has no guard for two parts that both have max -inf: a lane whose columns
// are all -inf, or that has no columns at all (rows shorter than 32), gets exp(-inf - (-inf)) = NaN,
// and the butterfly spreads that NaN to the whole row.
#include "online.cuh"

constexpr int kTileRows = 8;

__device__ Running unguarded_merge(Running a, Running b) {
  const float m = fmaxf(a.m, b.m);
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};  // missing: if (m == -INFINITY) return a;
}

__global__ void softmax_unguarded(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * kTileRows + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together, before any shuffle
  const float* in = x + static_cast<size_t>(row) * cols;
  Running r;
  for (int c = lane; c < cols; c += 32) r = unguarded_merge(r, {in[c], 1.0f});
  for (int offset = 16; offset > 0; offset /= 2) {
    r = unguarded_merge(
        r, {__shfl_xor_sync(0xffffffffu, r.m, offset), __shfl_xor_sync(0xffffffffu, r.s, offset)});
  }
  write_row(in, y + static_cast<size_t>(row) * cols, cols, lane, 32, r);
}

void blocked_softmax(const float* x, float* y, int rows, int cols) {
  softmax_unguarded<<<(rows + kTileRows - 1) / kTileRows, kTileRows * 32>>>(x, y, rows, cols);
}
