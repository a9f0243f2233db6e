// Global-memory traffic per labelled buffer, and the scratch memory a launcher allocates.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

void copy_elements(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

// One thread per row, three passes over the row: max, sum of exponentials, output.
void softmax_rows(const float* x, float* y, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + row * cols;
  float m = in[0];
  for (int c = 1; c < cols; ++c) m = fmaxf(m, in[c]);
  float sum = 0;
  for (int c = 0; c < cols; ++c) sum += expf(in[c] - m);
  for (int c = 0; c < cols; ++c) y[row * cols + c] = expf(in[c] - m) / sum;
}

const sim::harness::Traffic& traffic_of(const Report& report, const std::string& label) {
  for (const sim::harness::Traffic& t : report.traffic)
    if (t.label == label) return t;
  FAIL("no traffic entry for " << label);
  throw;
}

}  // namespace

TEST_CASE("a copy kernel reads and writes each element once") {
  constexpr int n = 10000;
  GuardedBuffer x(iota_floats(n), "x"), y(n, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3((n + 255) / 256), dim3(256), 0), "copy_elements",
                  [=, px = x.get(), py = y.get()] { copy_elements(px, py, n); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const auto& tx = traffic_of(report, "x");
  const auto& ty = traffic_of(report, "y");
  CHECK(tx.size == n * sizeof(float));  // without the guards
  CHECK(tx.bytes_read == n * sizeof(float));
  CHECK(tx.bytes_written == 0);
  CHECK(ty.bytes_read == 0);
  CHECK(ty.bytes_written == n * sizeof(float));
}

TEST_CASE("a kernel that reads its input three times is charged three times") {
  constexpr int rows = 300, cols = 33;
  GuardedBuffer x(iota_floats(rows * cols), "x"), y(rows * cols, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3((rows + 63) / 64), dim3(64), 0), "softmax_rows",
                  [=, px = x.get(), py = y.get()] { softmax_rows(px, py, rows, cols); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  CHECK(traffic_of(report, "x").bytes_read == 3 * rows * cols * sizeof(float));
  CHECK(traffic_of(report, "y").bytes_written == rows * cols * sizeof(float));
  CHECK(traffic_of(report, "y").bytes_read == 0);
}

TEST_CASE("traffic starts from zero at every launcher") {
  constexpr int n = 256;
  GuardedBuffer x(iota_floats(n), "x"), y(n, "y");
  auto copy = [&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(n), 0), "copy_elements",
                  [=, px = x.get(), py = y.get()] { copy_elements(px, py, n); });
  };
  checked([&] {
    copy();
    copy();
  });
  const Report second = checked(copy);
  CHECK(traffic_of(second, "x").bytes_read == n * sizeof(float));
}

TEST_CASE("scratch: what the launcher holds, buffers earlier calls kept included, and what it allocates") {
  // What launchers of earlier tests in this process allocated and never freed is held from call to call.
  const uint64_t kept = checked([] {}).scratch_live_bytes;
  float* before = nullptr;
  cudaMalloc(&before, 1 << 20);  // not the launcher's
  void *a = nullptr, *b = nullptr;
  const Report report = checked([&] {
    cudaMalloc(&a, 1000);
    cudaMalloc(&b, 3000);
    cudaFree(a);
    cudaFree(before);  // freeing memory allocated before the launcher does not count
  });
  CHECK(report.scratch_peak_bytes == kept + 4000);
  CHECK(report.scratch_live_bytes == kept + 3000);
  CHECK(report.scratch_allocated_bytes == 4000);
  // b, kept from the call before (a workspace reused from call to call), is held by the next call too,
  // but not allocated by it: the scratch budget judges the allocated figure.
  void* c = nullptr;
  const Report next = checked([&] {
    cudaMalloc(&c, 500);
    cudaFree(c);
  });
  CHECK(next.scratch_peak_bytes == kept + 3500);
  CHECK(next.scratch_live_bytes == kept + 3000);
  CHECK(next.scratch_allocated_bytes == 500);
  // A call that uses it in a kernel, then frees it: held while the kernel ran.
  const Report freeing = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(1), 0), "uses_the_workspace", [] {});
    cudaFree(b);
  });
  CHECK(freeing.scratch_peak_bytes == kept + 3000);
  CHECK(freeing.scratch_live_bytes == kept);
  CHECK(freeing.scratch_allocated_bytes == 0);
  const Report after = checked([] {});
  CHECK(after.scratch_peak_bytes == kept);
  CHECK(after.scratch_live_bytes == kept);
  CHECK(after.scratch_allocated_bytes == 0);
  // A call that frees a kept buffer before it allocates a smaller one (a new shape) holds the smaller one
  // only: the peak is not taken at the call's start.
  void *large = nullptr, *small = nullptr;
  checked([&] { cudaMalloc(&large, 8000); });
  const Report shrinking = checked([&] {
    cudaFree(large);
    cudaMalloc(&small, 200);
  });
  CHECK(shrinking.scratch_peak_bytes == kept + 200);
  CHECK(shrinking.scratch_allocated_bytes == 200);
  cudaFree(small);
}
