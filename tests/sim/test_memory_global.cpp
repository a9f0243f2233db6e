// The memory checker on global memory: bounds on both sides, guards, use after free, host
// dereferences, alignment, and silence on correct kernels.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

void copy_kernel(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

void launch_copy(const float* x, float* y, int n) {
  ::sim::launch(::sim::LaunchConfig(dim3((n + 255) / 256), dim3(256), 0), "copy_kernel",
                [=] { copy_kernel(x, y, n); });
}

void write_through_n(float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) y[i] = 1.0f;
}
constexpr int kWriteThroughNLine = __LINE__ - 2;

void read_previous(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i - 1];
}

// rows x cols, one thread per element, with the row index off by `row_shift`.
void shifted_rows(const float* x, float* y, int rows, int cols, int row_shift) {
  const int row = blockIdx.x, col = threadIdx.x;
  if (row < rows && col < cols) y[row * cols + col] = x[(row + row_shift) * cols + col];
}

void write_all(float* y, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = 2.0f;
}
constexpr int kWriteAllLine = __LINE__ - 2;

void count_into(int* counts, int buckets) {
  atomicAdd(&counts[threadIdx.x % (buckets + 1)], 1);
}

void copy_float4(const float* x, float* y, int offset) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<float4*>(y)[i] = reinterpret_cast<const float4*>(x + offset)[i];
}

}  // namespace

TEST_CASE("a correct kernel on guarded buffers produces no findings") {
  constexpr int n = 1000;
  GuardedBuffer x(iota_floats(n), "x"), y(n, "y");
  const Report report = checked([&] { launch_copy(x.get(), y.get(), n); });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  CHECK(y.download() == iota_floats(n));
}

TEST_CASE("a write one element past the end names the buffer, the index and the distance") {
  constexpr int n = 16641;
  GuardedBuffer y(n, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3((n + 256) / 256), dim3(256), 0), "write_through_n",
                  [=, p = y.get()] { write_through_n(p, n); });
  });
  const auto found = of_kind(report, "global_oob_write");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  const Finding& f = found[0];
  CHECK(f.severity == "error");
  CHECK(f.message ==
        "write of 4 bytes at y[16641], 4 bytes past the end of y (16641 elements of 4 bytes: valid indices "
        "0..16640)");
  CHECK(f.count == 1);
  CHECK(f.line == kWriteThroughNLine);
  CHECK(ends_with(f.file, "test_memory_global.cpp"));
  CHECK(f.block[0] == n / 256);
  CHECK(f.thread[0] == n % 256);
  CHECK(report.findings.size() == 1);
}

TEST_CASE("a read one element before the start is reported once per line, with a count") {
  constexpr int n = 512;
  GuardedBuffer x(iota_floats(n), "x"), y(n, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(2), dim3(256), 0), "read_previous",
                  [=, px = x.get(), py = y.get()] { read_previous(px, py, n); });
  });
  const auto found = of_kind(report, "global_oob_read");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].message ==
        "read of 4 bytes at x[-1], 4 bytes before the start of x (512 elements of 4 bytes: valid indices "
        "0..511)");
  CHECK(found[0].block[0] == 0);
  CHECK(found[0].thread[0] == 0);
}

TEST_CASE("an index error of a whole row lands in the red zone of an unguarded buffer") {
  constexpr int rows = 64, cols = 100;
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, rows * cols * sizeof(float));
  const int malloc_line = __LINE__ - 1;
  cudaMalloc(&y, rows * cols * sizeof(float));
  const std::string allocated_at =
      "the buffer allocated at test_memory_global.cpp:" + std::to_string(malloc_line);

  SUBCASE("one row past the end") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(rows), dim3(cols), 0), "shifted_rows",
                    [=] { shifted_rows(x, y, rows, cols, 1); });
    });
    const auto found = of_kind(report, "global_oob_read");
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].count == cols);
    CHECK(found[0].message == "read of 4 bytes at buffer[6400], 4 bytes past the end of " + allocated_at +
                                  " (6400 elements of 4 bytes: valid indices 0..6399)");
  }
  SUBCASE("one row before the start") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(rows), dim3(cols), 0), "shifted_rows",
                    [=] { shifted_rows(x, y, rows, cols, -1); });
    });
    const auto found = of_kind(report, "global_oob_read");
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].count == cols);
    CHECK(found[0].message == "read of 4 bytes at buffer[-100], 400 bytes before the start of " +
                                  allocated_at + " (6400 elements of 4 bytes: valid indices 0..6399)");
  }
  cudaFree(x);
  cudaFree(y);
}

TEST_CASE("writes into a guard zone are out-of-bounds writes named after the buffer") {
  constexpr int n = 100;
  GuardedBuffer y(n, "out");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(128), 0), "write_all",
                  [=, p = y.get() - 8] { write_all(p, n + 16); });
  });
  const auto found = of_kind(report, "global_oob_write");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].count == 16);
  CHECK(found[0].line == kWriteAllLine);
  // Threads run in order, so the first one reported is the lowest index.
  CHECK(found[0].message ==
        "write of 4 bytes at out[-8], 32 bytes before the start of out (100 elements of 4 bytes: valid "
        "indices 0..99)");
}

TEST_CASE("a guard marked inside an allocation is out of bounds too") {
  float* base = nullptr;
  cudaMalloc(&base, 300 * sizeof(float));
  sim::harness::mark_guard(base + 100, 100 * sizeof(float), "middle");
  sim::harness::label_allocation(base, "split");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(256), 0), "write_all", [=] { write_all(base, 300); });
  });
  const auto found = of_kind(report, "global_oob_write");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].count == 100);
  CHECK(found[0].message ==
        "write of 4 bytes at split[100], inside a guard zone of split (300 elements of 4 bytes: valid "
        "indices 0..299)");
  cudaFree(base);
}

TEST_CASE("a kernel touching freed memory is a use after free, naming the cudaFree") {
  float* y = nullptr;
  cudaMalloc(&y, 64 * sizeof(float));
  sim::harness::label_allocation(y, "y");
  cudaFree(y);
  const int free_line = __LINE__ - 1;
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "write_all", [=] { write_all(y, 64); });
  });
  const auto found = of_kind(report, "use_after_free");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].count == 64);
  CHECK(found[0].message ==
        "write of 4 bytes at y[0] after y was freed (cudaFree at test_memory_global.cpp:" +
            std::to_string(free_line) + ")");
  CHECK(report.findings.size() == 1);
}

TEST_CASE("host code dereferencing a device pointer is reported") {
  float* x = nullptr;
  cudaMalloc(&x, 16 * sizeof(float));
  sim::harness::label_allocation(x, "x");
  float host_copy = 0;
  const Report report = checked([&] { host_copy = x[3]; });
  const int deref_line = __LINE__ - 1;
  const auto found = of_kind(report, "host_access_to_device");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].line == deref_line);
  CHECK(found[0].block[0] == -1);
  CHECK(
      found[0].message ==
      "read of 4 bytes at x[3] in host code: device memory cannot be dereferenced on the host (a GPU program "
      "would crash); copy it with cudaMemcpy");
  CHECK(host_copy == 0.0f);
  cudaFree(x);
}

TEST_CASE("atomics are bounds-checked and counted as read-modify-writes") {
  int* counts = nullptr;
  cudaMalloc(&counts, 4 * sizeof(int));
  cudaMemset(counts, 0, 4 * sizeof(int));
  sim::harness::label_allocation(counts, "counts");
  SUBCASE("in bounds") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "count_into", [=] { count_into(counts, 3); });
    });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    REQUIRE(report.traffic.size() == 1);
    CHECK(report.traffic[0].bytes_read == 64 * sizeof(int));
    CHECK(report.traffic[0].bytes_written == 64 * sizeof(int));
  }
  SUBCASE("one bucket too many") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "count_into", [=] { count_into(counts, 4); });
    });
    const auto found = of_kind(report, "global_oob_write");
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].count == 12);  // threads 4, 9, ..., 59
    CHECK(
        found[0].message ==
        "atomic update of 4 bytes at counts[4], 4 bytes past the end of counts (4 elements of 4 bytes: valid "
        "indices 0..3)");
  }
  cudaFree(counts);
}

TEST_CASE("float4 accesses must be 16-byte aligned") {
  GuardedBuffer x(iota_floats(260), "x"), y(256, "y");
  SUBCASE("aligned: no finding") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "copy_float4",
                    [=, px = x.get(), py = y.get()] { copy_float4(px, py, 0); });
    });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    const std::vector<float> copied = y.download();  // the 16-byte loads and stores moved every float
    for (size_t i = 0; i < copied.size(); ++i) CHECK(copied[i] == static_cast<float>(i));
  }
  SUBCASE("one float off: misaligned, and the block stops there") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(2), dim3(32), 0), "copy_float4",
                    [=, px = x.get(), py = y.get()] { copy_float4(px, py, 1); });
    });
    const auto found = of_kind(report, "misaligned_access");
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].count == 2);  // the first access of each block
    CHECK(found[0].message ==
          "read of 16 bytes at x + 4 bytes is not aligned to 16 bytes: a GPU stops the kernel with "
          "cudaErrorMisalignedAddress (the simulator stopped this block)");
    CHECK_MESSAGE(report.findings.size() == 1, kinds(report));
    for (float v : y.download()) CHECK(v == 0.0f);
    CHECK(cudaDeviceSynchronize() == cudaErrorMisalignedAddress);  // sticky, as on a GPU
    cudaDeviceReset();
  }
}
