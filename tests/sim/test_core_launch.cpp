// Launches: every thread of a 3-D grid of 3-D blocks runs once, refused launches run nothing and
// set CUDA's error, and dynamic shared memory follows cudaFuncSetAttribute.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <vector>

#include "memory_test_support.hpp"

namespace {

// Counts visits of (block, thread) and checks the built-in variables agree with each other.
void visit(int* visits, int* wrong_dims) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned threads_per_block = blockDim.x * blockDim.y * blockDim.z;
  visits[block * threads_per_block + thread] += 1;
  const dim3 g = gridDim, b = blockDim;
  if (g.x != 3 || g.y != 2 || g.z != 4 || b.x != 5 || b.y != 3 || b.z != 2 || warpSize != 32)
    *wrong_dims += 1;
}

void never_runs(int* ran) {
  *ran = 1;
}

}  // namespace

TEST_CASE("every (blockIdx, threadIdx) of a 3-D grid of 3-D blocks runs exactly once") {
  std::vector<int> visits(3 * 2 * 4 * 5 * 3 * 2, 0);
  int wrong_dims = 0;
  int* v = visits.data();
  int* w = &wrong_dims;
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(3, 2, 4), dim3(5, 3, 2)), "visit", [=]() { visit(v, w); });
  });
  CHECK(report.findings.empty());
  CHECK(wrong_dims == 0);
  for (size_t i = 0; i < visits.size(); ++i) CHECK(visits[i] == 1);
  CHECK(report.simulated_threads == visits.size());
  REQUIRE(report.launches.size() == 1);
  const auto& launch = report.launches[0];
  CHECK(launch.kernel == "visit");
  CHECK(launch.grid[2] == 4);
  CHECK(launch.block[1] == 3);
  CHECK(launch.error.empty());
  CHECK(memory_test::ends_with(launch.file, "test_core_launch.cpp"));
}

TEST_CASE("an invalid configuration runs nothing and is CUDA 13's cudaErrorInvalidValue") {
  struct Case {
    const char* what;
    dim3 grid, block;
  };
  const Case cases[] = {
      {"1025 threads", dim3(1), dim3(1025)},
      {"too many threads in 2-D", dim3(1), dim3(64, 17)},
      {"blockDim.z above 64", dim3(1), dim3(1, 1, 65)},
      {"gridDim.y above 65535", dim3(1, 65536), dim3(32)},
      {"a zero dimension", dim3(0), dim3(32)},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    int ran = 0;
    int* r = &ran;
    const auto report = memory_test::checked(
        [&] { ::sim::launch(::sim::LaunchConfig(c.grid, c.block), "never_runs", [=]() { never_runs(r); }); });
    CHECK(ran == 0);
    CHECK(cudaPeekAtLastError() == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaSuccess);  // reading it resets it
    REQUIRE(memory_test::of_kind(report, "launch_invalid_config").size() == 1);
    REQUIRE(report.launches.size() == 1);
    CHECK(report.launches[0].error == "cudaErrorInvalidValue");
  }
}

namespace {

void fill_dynamic_shared(int* out) {
  int* const buffer = ::sim::dynamic_shared<int>();
  buffer[threadIdx.x * 1024] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = buffer[(15 - threadIdx.x) * 1024];
}

}  // namespace

TEST_CASE("dynamic shared memory above 48 KiB needs cudaFuncSetAttribute, and stops at 227 KiB") {
  constexpr size_t kBytes = 16 * 1024 * sizeof(int);  // 64 KiB
  std::vector<int> out(16, -1);
  int* p = out.data();
  auto launch = [&](size_t bytes) {
    return memory_test::checked([&] {
      ::sim::launch(::sim::LaunchConfig(1, 16, bytes), "fill_dynamic_shared",
                    [=]() { fill_dynamic_shared(p); });
    });
  };

  auto report = launch(kBytes);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  REQUIRE(memory_test::of_kind(report, "launch_too_much_shared").size() == 1);
  CHECK(memory_test::of_kind(report, "launch_too_much_shared")[0].message.find("cudaFuncSetAttribute") !=
        std::string::npos);
  CHECK(out[0] == -1);

  CHECK(cudaFuncSetAttribute(fill_dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes) ==
        cudaSuccess);
  report = launch(kBytes);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  for (int t = 0; t < 16; ++t) CHECK(out[t] == 15 - t);

  CHECK(cudaFuncSetAttribute(fill_dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  report = launch(300000);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  REQUIRE(memory_test::of_kind(report, "launch_too_much_shared").size() == 1);
  CHECK(memory_test::of_kind(report, "launch_too_much_shared")[0].message.find("227 KiB") !=
        std::string::npos);

  CHECK(cudaDeviceReset() == cudaSuccess);  // forgets the attribute
  launch(kBytes);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

namespace {

void count_blocks(unsigned long long* count) {
  atomicAdd(count, 1ull);
}

}  // namespace

TEST_CASE("a launch inside a kernel is refused") {
  unsigned long long count = 0;
  unsigned long long* c = &count;
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, 1), "parent",
                  [=]() { ::sim::launch(::sim::LaunchConfig(1, 1), "child", [=]() { count_blocks(c); }); });
  });
  CHECK(count == 0);
  CHECK(memory_test::of_kind(report, "launch_from_device").size() == 1);
}
