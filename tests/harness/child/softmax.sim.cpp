// A row softmax in the form sim/translate gives a .cu file (shared memory and the launch rewritten),
// so that the simulator child can be tested on its own. Compiled three times:
//   SOFTMAX_RIGHT       a right kernel
//   SOFTMAX_WRITES_PAST the last block also writes y[rows * cols]: one float past the end
//   SOFTMAX_HUGE_BLOCK  launches 2048 threads per block: cudaErrorInvalidConfiguration
#include <cmath>

namespace {

#ifdef SOFTMAX_HUGE_BLOCK
constexpr int kThreads = 2048;
#else
constexpr int kThreads = 128;
#endif

// Every thread of the block gets the max (or the sum) of all threads' v.
float block_reduce(float v, bool max) {
  static ::sim::SharedSite partial__site{"partial", 20};
  auto& partial = ::sim::shared_var<float[kThreads / 32]>(partial__site);
  for (int offset = 16; offset > 0; offset /= 2) {
    const float other = __shfl_xor_sync(0xffffffffu, v, offset);
    v = max ? fmaxf(v, other) : v + other;
  }
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  v = partial[0];
  for (int w = 1; w < kThreads / 32; ++w) v = max ? fmaxf(v, partial[w]) : v + partial[w];
  __syncthreads();  // partial is reused by the next reduction
  return v;
}

void softmax_kernel(const float* x, float* y, int cols) {
  const float* row = x + blockIdx.x * static_cast<size_t>(cols);
  float* out = y + blockIdx.x * static_cast<size_t>(cols);
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads) m = fmaxf(m, row[c]);
  m = block_reduce(m, true);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kThreads) s += expf(row[c] - m);
  s = block_reduce(s, false);
  for (int c = threadIdx.x; c < cols; c += kThreads) out[c] = expf(row[c] - m) / s;
#ifdef SOFTMAX_WRITES_PAST
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) out[cols] = 0.0f;
#endif
}

}  // namespace

void row_softmax(const float* x, float* y, int rows, int cols) {
  ::sim::launch(::sim::LaunchConfig(rows, kThreads), "softmax_kernel", [=]() { softmax_kernel(x, y, cols); });
}
