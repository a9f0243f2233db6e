// The memory checker on shared memory: layout, poison, bounds, uninitialized reads, dynamic
// shared memory and the per-block limit.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

// Sums each block's 256 inputs with a tree reduction in shared memory.
void block_sum(const float* x, float* sums) {
  static ::sim::SharedSite partial_site{"partial", __LINE__};
  auto& partial = ::sim::shared_var<float[256]>(partial_site);
  const unsigned t = threadIdx.x;
  partial[t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

void shift_left_in_shared(float* y) {
  static ::sim::SharedSite s_site{"s", __LINE__};
  auto& s = ::sim::shared_var<float[256]>(s_site);
  s[threadIdx.x + 1] = 1.0f;
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x];
}
constexpr int kShiftLeftLine = __LINE__ - 4;

void read_neighbour_before(float* y) {
  static ::sim::SharedSite s_site{"s", __LINE__};
  auto& s = ::sim::shared_var<float[256]>(s_site);
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  y[threadIdx.x] = s[static_cast<int>(threadIdx.x) - 1];
}

void read_without_writing(float* y) {
  static ::sim::SharedSite s_site{"s", __LINE__};
  auto& s = ::sim::shared_var<float[64]>(s_site);
  y[threadIdx.x] = s[threadIdx.x];
}
constexpr int kReadWithoutWritingLine = __LINE__ - 2;

// Two static variables and the dynamic region, each written and read back.
void two_tiles_and_dynamic(float* y, int dynamic_count) {
  static ::sim::SharedSite a_site{"a", __LINE__};
  auto& a = ::sim::shared_var<float[32]>(a_site);
  static ::sim::SharedSite b_site{"b", __LINE__};
  auto& b = ::sim::shared_var<float[32]>(b_site);
  float* d = ::sim::dynamic_shared<float>();
  const unsigned t = threadIdx.x;
  a[t] = 1.0f;
  b[t] = 2.0f;
  for (int i = t; i < dynamic_count; i += 32) d[i] = 3.0f;
  __syncthreads();
  float sum = a[31 - t] + b[31 - t];
  for (int i = t; i < dynamic_count; i += 32) sum += d[i];
  y[blockIdx.x * 32 + t] = sum;
}

void write_dynamic(float* y, int count) {
  float* d = ::sim::dynamic_shared<float>();
  d[threadIdx.x] = 1.0f;
  __syncthreads();
  y[threadIdx.x] = d[count - 1 - threadIdx.x];
}

void big_static_tile(float* y) {
  static ::sim::SharedSite big_site{"big", __LINE__};
  auto& big = ::sim::shared_var<float[8192]>(big_site);  // 32 KiB
  big[threadIdx.x] = 1.0f;
  __syncthreads();
  y[threadIdx.x] = big[threadIdx.x];
}

void read_unwritten_then_overrun(float* y) {
  static ::sim::SharedSite s_site{"s", __LINE__};
  auto& s = ::sim::shared_var<float[32]>(s_site);
  y[threadIdx.x] = s[threadIdx.x];
  y[threadIdx.x + 32] = 1.0f;
}

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

}  // namespace

TEST_CASE("a shared-memory reduction with barriers produces no findings") {
  constexpr int blocks = 8;
  GuardedBuffer x(iota_floats(blocks * 256), "x"), sums(blocks, "sums");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(blocks), dim3(256), 0), "block_sum",
                  [=, px = x.get(), ps = sums.get()] { block_sum(px, ps); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const std::vector<float> got = sums.download();
  for (int b = 0; b < blocks; ++b) CHECK(got[b] == doctest::Approx(256.0 * 256 * b + 255 * 128));
}

TEST_CASE("a shared write past the end names the variable and its index range") {
  GuardedBuffer y(256, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(2), dim3(256), 0), "shift_left_in_shared",
                  [=, p = y.get()] { shift_left_in_shared(p); });
  });
  const auto found = of_kind(report, "shared_oob_write");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].severity == "error");
  CHECK(found[0].count == 2);  // thread 255 of each block
  CHECK(found[0].thread[0] == 255);
  CHECK(found[0].line == kShiftLeftLine);
  CHECK(found[0].message ==
        "write of 4 bytes at s[256], 4 bytes past the end of __shared__ s (256 elements of 4 bytes: valid "
        "indices "
        "0..255)");
}

TEST_CASE("a shared read before the start is reported") {
  GuardedBuffer y(256, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(256), 0), "read_neighbour_before",
                  [=, p = y.get()] { read_neighbour_before(p); });
  });
  const auto found = of_kind(report, "shared_oob_read");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].thread[0] == 0);
  CHECK(found[0].message ==
        "read of 4 bytes at s[-1], 4 bytes before the start of __shared__ s (256 elements of 4 bytes: valid "
        "indices "
        "0..255)");
  CHECK(report.findings.size() == 1);
}

TEST_CASE("reading never-written shared memory is a warning, and reads the poison") {
  GuardedBuffer y(64, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "read_without_writing",
                  [=, p = y.get()] { read_without_writing(p); });
  });
  const auto found = of_kind(report, "shared_uninit_read");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].severity == "warning");
  CHECK(found[0].count == 64);
  CHECK(found[0].line == kReadWithoutWritingLine);
  CHECK(found[0].message ==
        "read of 4 bytes at s[0], which no thread of this block has written yet (shared memory starts "
        "uninitialized)");
  for (float v : y.download()) CHECK(bits(v) == 0xFFFFFFFFu);
}

TEST_CASE("errors come before warnings, whatever happened first") {
  GuardedBuffer y(32, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(32), 0), "read_unwritten_then_overrun",
                  [=, p = y.get()] { read_unwritten_then_overrun(p); });
  });
  REQUIRE_MESSAGE(report.findings.size() == 2, kinds(report));
  CHECK(report.findings[0].kind == "global_oob_write");
  CHECK(report.findings[1].kind == "shared_uninit_read");
}

TEST_CASE("static and dynamic shared memory: separate storage, one layout for every block") {
  constexpr int blocks = 4, dynamic_count = 100;
  GuardedBuffer y(blocks * 32, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(blocks), dim3(32), dynamic_count * sizeof(float)),
                  "two_tiles_and_dynamic", [=, p = y.get()] { two_tiles_and_dynamic(p, dynamic_count); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const std::vector<float> got = y.download();
  for (int i = 0; i < blocks * 32; ++i) {
    const int t = i % 32, own = (dynamic_count - t + 31) / 32;  // dynamic elements thread t wrote
    CHECK(got[i] == 3.0f + 3.0f * own);
  }
  REQUIRE(report.launches.size() == 1);
  CHECK(report.launches[0].static_shared == 2 * 32 * sizeof(float));
  CHECK(report.launches[0].dynamic_shared == dynamic_count * sizeof(float));
}

TEST_CASE("dynamic shared memory is bounded by the launch's size") {
  GuardedBuffer y(64, "y");
  SUBCASE("past the end") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 32 * sizeof(float)), "write_dynamic",
                    [=, p = y.get()] { write_dynamic(p, 32); });
    });
    const auto found = of_kind(report, "shared_oob_write");
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].count == 32);
    CHECK(found[0].message ==
          "write of 4 bytes at dynamic_shared[32], 4 bytes past the end of the dynamic shared memory (32 "
          "elements of "
          "4 bytes: valid indices 0..31)");
  }
  SUBCASE("no size given at the launch") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "write_dynamic",
                    [=, p = y.get()] { write_dynamic(p, 64); });
    });
    const auto found = of_kind(report, "shared_oob_write");
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].message ==
          "write of 4 bytes at dynamic_shared[0], 4 bytes past the end of the dynamic shared memory (0 "
          "bytes); the "
          "launch gave no dynamic shared memory (its size is the third <<<...>>> argument)");
  }
}

TEST_CASE("more shared memory than the default 48 KiB is refused with advice") {
  GuardedBuffer y(64, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 20 << 10), "big_static_tile",
                  [=, p = y.get()] { big_static_tile(p); });
  });
  const auto found = of_kind(report, "shared_too_large");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].severity == "error");
  CHECK(found[0].message ==
        "the block needs 53248 bytes of shared memory (32768 static + 20480 dynamic), above the default "
        "limit of "
        "49152 bytes per block; before the launch call cudaFuncSetAttribute(big_static_tile, "
        "cudaFuncAttributeMaxDynamicSharedMemorySize, 20480) (up to 199680 bytes)");
}
