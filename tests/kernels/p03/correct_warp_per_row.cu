// expect: passed
// Correct, written differently: one warp per row, 8 rows per block, no shared memory. Each lane's
// update costs one exp: a new max rescales the sum by exp(m_old - x) and adds exp(0) = 1.
#include <cuda_runtime.h>

#include <cmath>

constexpr int kRowsPerBlock = 8;

__global__ void softmax_warp_per_row(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together: no barrier follows
  const float* in = x + static_cast<size_t>(row) * cols;
  float* out = y + static_cast<size_t>(row) * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    const float v = in[c];
    if (v > m) {
      s = s * expf(m - v) + 1.0f;  // m = -inf gives s * 0: the guard is the strict `v > m`
      m = v;
    } else if (v != -INFINITY) {  // v <= m, both -inf would give exp(NaN)
      s += expf(v - m);
    }
  }
  for (int o = 16; o > 0; o /= 2) {
    const float m_other = __shfl_xor_sync(0xffffffffu, m, o), s_other = __shfl_xor_sync(0xffffffffu, s, o);
    const float m_new = fmaxf(m, m_other);
    if (m_new == -INFINITY) continue;  // both lanes saw only -inf (possible for short rows)
    s = s * expf(m - m_new) + s_other * expf(m_other - m_new);
    m = m_new;
  }
  for (int c = lane; c < cols; c += 32) out[c] = expf(in[c] - m) / s;
}

void online_softmax(const float* x, float* y, int rows, int cols) {
  softmax_warp_per_row<<<(rows + kRowsPerBlock - 1) / kRowsPerBlock, 32 * kRowsPerBlock>>>(x, y, rows, cols);
}
