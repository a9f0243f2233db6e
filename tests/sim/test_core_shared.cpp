// Whole kernels in the translator's output form, with shared memory, barriers and shuffles: correct
// kernels give correct results and no findings, over many blocks on several host threads.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <vector>

#include "memory_test_support.hpp"

namespace {

// One block per row: a strided sum, a shared-memory tree down to a warp, then shuffles.
void row_sums(const float* x, float* y, int cols) {
  static ::sim::SharedSite partial_site{"partial", __LINE__};
  auto& partial = ::sim::shared_var<float[256]>(partial_site);
  const float* row = x + static_cast<size_t>(blockIdx.x) * cols;
  float sum = 0.0f;
  for (int c = static_cast<int>(threadIdx.x); c < cols; c += static_cast<int>(blockDim.x)) sum += row[c];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 32; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float v = partial[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0) y[blockIdx.x] = v;
  }
}

// 32x32 tiles through shared memory, padded against bank conflicts.
void transpose(const float* in, float* out, int n) {
  static ::sim::SharedSite tile_site{"tile", __LINE__};
  auto& tile = ::sim::shared_var<float[32][33]>(tile_site);
  const unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < unsigned(n) && y < unsigned(n)) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  const unsigned tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  if (tx < unsigned(n) && ty < unsigned(n)) out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

}  // namespace

TEST_CASE("a shared-memory row reduction over 512 blocks") {
  constexpr int kRows = 512, kCols = 1000;
  std::vector<float> values(kRows * kCols);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 7) - 3.0f;
  const memory_test::GuardedBuffer x(values, "x");
  const memory_test::GuardedBuffer y(kRows, "y");
  const float* px = x.get();
  float* py = y.get();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(kRows, 256), "row_sums", [=]() { row_sums(px, py, kCols); });
  });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  const std::vector<float> sums = y.download();
  for (int r = 0; r < kRows; ++r) {
    double expected = 0;
    for (int c = 0; c < kCols; ++c) expected += values[static_cast<size_t>(r) * kCols + c];
    CHECK(sums[r] == doctest::Approx(expected));
  }
}

TEST_CASE("a tiled transpose with 2-D blocks and a partial edge") {
  constexpr int n = 100;
  const memory_test::GuardedBuffer in(memory_test::iota_floats(n * n), "in");
  const memory_test::GuardedBuffer out(n * n, "out");
  const float* pi = in.get();
  float* po = out.get();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(4, 4), dim3(32, 32)), "transpose",
                  [=]() { transpose(pi, po, n); });
  });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  const std::vector<float> t = out.download();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) CHECK(t[i * n + j] == static_cast<float>(j * n + i));
  }
}
