// expect: passed
// Correct, written differently: one warp per row, 4 rows per block, online max/sum per lane,
// fast-math __expf and __fdividef.
#include <cuda_runtime.h>

#include <cmath>

__global__ void softmax_warp_per_row(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together: no barrier follows
  const float* in = x + static_cast<size_t>(row) * cols;
  float m = -INFINITY, s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    const float v = in[c], m_new = fmaxf(m, v);
    if (m_new == -INFINITY) continue;  // all -inf so far: exp(-inf - -inf) would be NaN
    s = s * __expf(m - m_new) + __expf(v - m_new);
    m = m_new;
  }
  for (int o = 16; o > 0; o /= 2) {
    const float m_other = __shfl_xor_sync(0xffffffffu, m, o), s_other = __shfl_xor_sync(0xffffffffu, s, o);
    const float m_new = fmaxf(m, m_other);
    s = (m == -INFINITY ? 0.0f : s * __expf(m - m_new)) +
        (m_other == -INFINITY ? 0.0f : s_other * __expf(m_other - m_new));
    m = m_new;
  }
  for (int c = lane; c < cols; c += 32)
    y[static_cast<size_t>(row) * cols + c] = __fdividef(__expf(in[c] - m), s);
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_warp_per_row<<<(rows + 3) / 4, 128>>>(x, y, rows, cols);
}
