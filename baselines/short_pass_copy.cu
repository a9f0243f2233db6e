// What a short pass can reach: a device-to-device cudaMemcpy of 16 MB and a float4 copy kernel, beside puzzle
// 1's fastest solution on 4096 x 1024 (16 MB each way), and the 1 GiB copy that `puzzle bench` divides by;
// and the floor under them all, a kernel that does nothing (3 blocks per SM).
// Timed as the bench times kernels (harness/child/bench.cpp): a busy-wait queued ahead so that the launch
// is not timed, CUDA events, the median of 50, buffers rotated through more than 3x the L2.
//   nvcc -O3 -arch=sm_90 baselines/short_pass_copy.cu -o short_pass_copy && ./short_pass_copy
// Puzzle 1's page ("Beside PyTorch") quotes it: on the H200 the 16 MB copies reach 67-68% of the large one.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../solutions/01_row_softmax/3_warp_rows.cu"

namespace {

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

__global__ void copy_float4(const float4* __restrict__ x, float4* __restrict__ y, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i];
}

__global__ void do_nothing() {}

// Median time of `launch(x, y)` over 50 runs, each on the next of the buffer pairs.
template <class Launch>
double median_us(const std::vector<float*>& xs, const std::vector<float*>& ys, Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (size_t i = 0; i < 5; ++i) launch(xs[i % xs.size()], ys[i % ys.size()]);  // warm-up
  std::vector<float> ms(50);
  for (size_t r = 0; r < ms.size(); ++r) {
    spin<<<1, 1>>>(40000);  // about 20 us: the start event and the launch queue up behind it
    cudaEventRecord(start);
    launch(xs[r % xs.size()], ys[r % ys.size()]);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms[r], start, stop);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1e3;
}

std::vector<float*> buffers(int count, size_t bytes) {
  std::vector<float*> made(count);
  for (float*& b : made) {
    cudaMalloc(&b, bytes);
    cudaMemset(b, 0x3f, bytes);  // 0.75: not zeros
  }
  return made;
}

}  // namespace

int main() {
  const int rows = 4096, cols = 1024;
  const size_t bytes = size_t{rows} * cols * sizeof(float), big = size_t{1} << 30;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const int pairs = static_cast<int>(3 * static_cast<size_t>(prop.l2CacheSize) / (2 * bytes) + 1);
  const auto xs = buffers(pairs, bytes), ys = buffers(pairs, bytes);
  const auto big_x = buffers(1, big), big_y = buffers(1, big);
  const auto report = [](const char* what, size_t moved, double us) {
    std::printf("%-40s %8.2f us  %7.1f GB/s\n", what, us, 2.0 * moved / (us * 1e-6) * 1e-9);
  };
  std::printf("%s, buffers rotated through %d pairs of 2 x 16 MB\n", prop.name, pairs);
  report("cudaMemcpy device to device, 1 GiB", big, median_us(big_x, big_y, [&](float* x, float* y) {
           cudaMemcpyAsync(y, x, big, cudaMemcpyDeviceToDevice);
         }));
  report("cudaMemcpy device to device, 16 MB", bytes, median_us(xs, ys, [&](float* x, float* y) {
           cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice);
         }));
  report("float4 copy kernel, 16 MB", bytes, median_us(xs, ys, [&](float* x, float* y) {
           const size_t n = bytes / sizeof(float4);
           copy_float4<<<(n + 255) / 256, 256>>>(reinterpret_cast<const float4*>(x),
                                                 reinterpret_cast<float4*>(y), n);
         }));
  const double empty_us =
      median_us(xs, ys, [&](float*, float*) { do_nothing<<<3 * prop.multiProcessorCount, 256>>>(); });
  std::printf("%-40s %8.2f us\n", "a kernel that does nothing", empty_us);
  report("puzzle 1, 3_warp_rows.cu, 4096 x 1024", bytes,
         median_us(xs, ys, [&](float* x, float* y) { row_softmax(x, y, rows, cols); }));
  const cudaError_t error = cudaDeviceSynchronize();
  if (error != cudaSuccess) std::printf("CUDA error: %s\n", cudaGetErrorString(error));
  return error == cudaSuccess ? 0 : 1;
}
