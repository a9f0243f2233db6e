// CUDA's memory API on the simulated device: allocation, copies, sets and symbols, with CUDA's error
// codes and findings for bad ranges and directions.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

float coefficients[8];  // a __constant__ array after translation

void scale_by_coefficients(const float* x, float* y) {
  const unsigned i = threadIdx.x;
  y[i] = x[i] * coefficients[i % 8];
}

}  // namespace

TEST_CASE("cudaMalloc: 256-byte aligned, never reused, CUDA's errors") {
  void *a = nullptr, *b = nullptr;
  REQUIRE(cudaMalloc(&a, 100) == cudaSuccess);
  CHECK(reinterpret_cast<uintptr_t>(a) % 256 == 0);
  cudaFree(a);
  REQUIRE(cudaMalloc(&b, 100) == cudaSuccess);
  CHECK(b != a);
  cudaFree(b);

  CHECK(cudaMalloc(static_cast<void**>(nullptr), 4) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  void* zero = &b;
  CHECK(cudaMalloc(&zero, 0) == cudaSuccess);
  CHECK(zero == nullptr);

  const Report report = checked([] {
    void* huge = nullptr;
    CHECK(cudaMalloc(&huge, size_t{1} << 50) == cudaErrorMemoryAllocation);
    CHECK(huge == nullptr);
  });
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  CHECK(of_kind(report, "malloc_failed").size() == 1);
}

TEST_CASE("cudaFree: null is fine, a double free or a stray pointer is not") {
  CHECK(cudaFree(nullptr) == cudaSuccess);
  float* p = nullptr;
  cudaMalloc(&p, 64);
  const Report report = checked([&] {
    CHECK(cudaFree(p + 1) == cudaErrorInvalidValue);
    CHECK(cudaFree(p) == cudaSuccess);
    CHECK(cudaFree(p) == cudaErrorInvalidValue);
  });
  const auto found = of_kind(report, "invalid_free");
  REQUIRE(found.size() == 2);
  CHECK(found[0].message.find("not a pointer returned by cudaMalloc") != std::string::npos);
  CHECK(found[1].message.find("was already freed at test_memory_api.cpp:") != std::string::npos);
  cudaGetLastError();
}

TEST_CASE("cudaMemcpy checks ranges against the allocation") {
  std::vector<float> host(2048, 1.0f);
  float* d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(float));
  sim::harness::label_allocation(d, "d");
  const Report report = checked([&] {
    CHECK(cudaMemcpy(d, host.data(), 1024 * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(d, host.data(), 2048 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  });
  const int line = __LINE__ - 2;
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  const auto found = of_kind(report, "memcpy_oob");
  REQUIRE(found.size() == 1);
  CHECK(found[0].line == line);
  CHECK(found[0].message ==
        "cudaMemcpy(..., cudaMemcpyHostToDevice): the destination (8192 bytes from byte 0 of d) runs 4096 "
        "bytes past "
        "the end of its allocation (4096 bytes)");
  cudaFree(d);
}

TEST_CASE("cudaMemcpy checks the direction, and cudaMemcpyDefault infers it") {
  std::vector<float> host = iota_floats(16), back(16);
  float* d = nullptr;
  cudaMalloc(&d, 16 * sizeof(float));
  const Report report = checked([&] {
    CHECK(cudaMemcpy(d, host.data(), sizeof(float) * 16, cudaMemcpyDefault) == cudaSuccess);
    CHECK(cudaMemcpy(back.data(), d, sizeof(float) * 16, cudaMemcpyDefault) == cudaSuccess);
    CHECK(cudaMemcpy(back.data(), d, sizeof(float) * 16, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  });
  CHECK(back == host);
  const auto found = of_kind(report, "memcpy_bad_pointer");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "cudaMemcpy(..., cudaMemcpyHostToDevice): the destination should be a device pointer (from "
        "cudaMalloc) but "
        "is a host pointer");
  cudaGetLastError();
  cudaFree(d);
}

TEST_CASE("cudaMemcpy of freed memory is a use after free") {
  float* d = nullptr;
  cudaMalloc(&d, 64);
  sim::harness::label_allocation(d, "d");
  cudaFree(d);
  const int free_line = __LINE__ - 1;
  float host[16];
  const Report report =
      checked([&] { CHECK(cudaMemcpy(host, d, 64, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue); });
  const auto found = of_kind(report, "use_after_free");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "cudaMemcpy(..., cudaMemcpyDeviceToHost): the source is in d, which was freed (cudaFree at "
        "test_memory_api.cpp:" +
            std::to_string(free_line) + ")");
  cudaGetLastError();
}

TEST_CASE("cudaMemset sets bytes inside the allocation only") {
  uint32_t* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(uint32_t));
  const Report report = checked([&] {
    CHECK(cudaMemset(d, 0xAB, 64 * sizeof(uint32_t)) == cudaSuccess);
    CHECK(cudaMemsetAsync(d + 1, 0, 64 * sizeof(uint32_t)) == cudaErrorInvalidValue);
  });
  CHECK(of_kind(report, "memcpy_oob").size() == 1);
  std::vector<uint32_t> back(64);
  cudaMemcpy(back.data(), d, 64 * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  for (uint32_t v : back) CHECK(v == 0xABABABABu);
  cudaGetLastError();
  cudaFree(d);
}

TEST_CASE("cudaMemcpyToSymbol and FromSymbol copy the object itself, within its size") {
  const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  REQUIRE(cudaMemcpyToSymbol(coefficients, values.data(), sizeof(coefficients)) == cudaSuccess);
  GuardedBuffer x(iota_floats(32), "x"), y(32, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(32), 0), "scale_by_coefficients",
                  [=, px = x.get(), py = y.get()] { scale_by_coefficients(px, py); });
    CHECK(cudaMemcpyToSymbol(coefficients, values.data(), sizeof(float) * 2, sizeof(float) * 7) ==
          cudaErrorInvalidValue);
  });
  const std::vector<float> got = y.download();
  for (int i = 0; i < 32; ++i) CHECK(got[i] == static_cast<float>(i * (i % 8 + 1)));
  const auto found = of_kind(report, "memcpy_oob");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "cudaMemcpyToSymbol: bytes 28..36 are outside the symbol (32 bytes)");

  float back[8] = {};
  CHECK(cudaMemcpyFromSymbol(back, coefficients, sizeof(back)) == cudaSuccess);
  CHECK(back[7] == 8.0f);
  cudaGetLastError();
}

TEST_CASE("cudaMemGetInfo counts live allocations; pinned host memory is host memory") {
  size_t free_before = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free_before, &total) == cudaSuccess);
  void* d = nullptr;
  cudaMalloc(&d, 1 << 20);
  size_t free_after = 0;
  cudaMemGetInfo(&free_after, &total);
  CHECK(free_before - free_after == (1 << 20));
  cudaFree(d);

  float* pinned = nullptr;
  REQUIRE(cudaMallocHost(&pinned, 256 * sizeof(float)) == cudaSuccess);
  pinned[255] = 1.0f;  // host memory: no finding
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaFreeHost(&free_after) == cudaErrorInvalidValue);
  cudaGetLastError();
}
