// Race detection on global memory: different warps of a block need a barrier between conflicting
// accesses, different blocks an atomic or a flag handed over after a __threadfence(); launches are
// ordered, and threads touching different bytes of one word do not race.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

// Thread t stores t + 1 into y[t]; after the barrier (or none) it copies y[63 - t], another warp's.
void mirror_through_global(float* y, float* out, bool barrier) {
  y[threadIdx.x] = static_cast<float>(threadIdx.x + 1);
  if (barrier) __syncthreads();
  out[threadIdx.x] = y[63 - threadIdx.x];
}
constexpr int kMirrorWriteLine = __LINE__ - 4;
constexpr int kMirrorReadLine = __LINE__ - 3;

// Every block adds its index into y[0..n): plainly, or with atomicAdd.
void every_block_adds(float* y, int n, bool atomic) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    if (atomic)
      atomicAdd(&y[i], 1.0f);
    else
      y[i] += 1.0f;
  }
}

// Each block stores its partial sum, fences (or not) and takes a ticket; the last block reads them all.
void last_block_sums(float* partial, unsigned* ticket, float* total, bool fence) {
  static ::sim::SharedSite last_site{"last", __LINE__};
  auto& last = ::sim::shared_var<bool>(last_site);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = static_cast<float>(blockIdx.x);
    if (fence) __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  if (threadIdx.x != 1) return;  // not the thread that took the ticket: ordered by the barrier
  float sum = 0.0f;
  for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
  *total = sum;
}

// Block b writes byte b of each word; the next launch's block b reads byte (b + 1) % 4.
void write_my_byte(unsigned char* bytes) {
  bytes[threadIdx.x * 4 + blockIdx.x] = static_cast<unsigned char>(blockIdx.x);
}
void read_next_byte(unsigned char* bytes, float* y) {
  y[blockIdx.x * blockDim.x + threadIdx.x] = bytes[threadIdx.x * 4 + (blockIdx.x + 1) % 4];
}

// Block 0 publishes a word through a volatile store; the other blocks poll it with volatile loads.
void volatile_flag(unsigned* flag, float* y) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *static_cast<volatile unsigned*>(flag) = 1u;
  y[blockIdx.x] = static_cast<float>(*static_cast<volatile unsigned*>(flag));
}

void read_at(const float* x, float* y, long offset) {
  y[0] = x[offset];
}
constexpr int kReadAtLine = __LINE__ - 2;

template <class Kernel>
void run(dim3 grid, dim3 block, Kernel kernel) {
  ::sim::launch(::sim::LaunchConfig(grid, block, 0), "kernel", kernel);
}

}  // namespace

TEST_CASE("another warp reading a global element with no barrier after its write is a race") {
  GuardedBuffer y(64, "y"), out(64, "out");
  SUBCASE("no barrier: both lines named") {
    const Report report =
        checked([&] { run(1, 64, [p = y.get(), o = out.get()] { mirror_through_global(p, o, false); }); });
    const auto races = of_kind(report, "global_race");
    std::vector<Finding> found;
    for (const Finding& f : races)
      if (f.line == kMirrorReadLine) found.push_back(f);
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].message.find("of the same block wrote it at test_memory_global_races.cpp:" +
                                std::to_string(kMirrorWriteLine)) != std::string::npos);
    CHECK(found[0].message.find("no __syncthreads() separates them") != std::string::npos);
  }
  SUBCASE("a barrier orders them") {
    const Report report =
        checked([&] { run(1, 64, [p = y.get(), o = out.get()] { mirror_through_global(p, o, true); }); });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
  }
}

TEST_CASE("blocks adding into one element race unless the adds are atomic") {
  GuardedBuffer y(std::vector<float>(256, 0.0f), "y");
  SUBCASE("plain +=") {
    const Report report = checked([&] { run(4, 64, [p = y.get()] { every_block_adds(p, 256, false); }); });
    const auto found = of_kind(report, "global_race");
    REQUIRE_MESSAGE(!found.empty(), kinds(report));
    CHECK(found[0].message.find("of another block") != std::string::npos);
  }
  SUBCASE("atomicAdd") {
    const Report report = checked([&] { run(4, 64, [p = y.get()] { every_block_adds(p, 256, true); }); });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    CHECK(y.download() == std::vector<float>(256, 4.0f));
  }
}

TEST_CASE("a store, a __threadfence() and a ticket hand a block's result to the last block") {
  GuardedBuffer partial(64, "partial"), total(1, "total");
  unsigned* ticket = nullptr;
  cudaMalloc(&ticket, sizeof(unsigned));
  SUBCASE("with the fence: ordered") {
    cudaMemset(ticket, 0, sizeof(unsigned));
    const Report report = checked([&] {
      run(64, 64, [p = partial.get(), t = ticket, s = total.get()] { last_block_sums(p, t, s, true); });
    });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    CHECK(total.download()[0] == 64.0f * 63.0f / 2.0f);
  }
  SUBCASE("without it: a race") {
    cudaMemset(ticket, 0, sizeof(unsigned));
    const Report report = checked([&] {
      run(64, 64, [p = partial.get(), t = ticket, s = total.get()] { last_block_sums(p, t, s, false); });
    });
    CHECK_MESSAGE(!of_kind(report, "global_race").empty(), kinds(report));
  }
  cudaFree(ticket);
}

TEST_CASE("different bytes of one word, and accesses of earlier launches, do not race") {
  unsigned char* bytes = nullptr;
  cudaMalloc(&bytes, 4 * 64);
  GuardedBuffer y(4 * 64, "y");
  const Report report = checked([&] {
    run(4, 64, [bytes] { write_my_byte(bytes); });
    run(4, 64, [bytes, p = y.get()] { read_next_byte(bytes, p); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  cudaFree(bytes);
}

TEST_CASE("volatile accesses of a flag do not race with each other") {
  unsigned* flag = nullptr;
  cudaMalloc(&flag, sizeof(unsigned));
  cudaMemset(flag, 0, sizeof(unsigned));
  GuardedBuffer y(8, "y");
  const Report report = checked([&] { run(8, 32, [flag, p = y.get()] { volatile_flag(flag, p); }); });
  CHECK_MESSAGE(of_kind(report, "global_race").empty(), kinds(report));
  cudaFree(flag);
}

TEST_CASE("an access far outside every buffer names the nearest one and the distance") {
  GuardedBuffer x(1000, "x"), y(1, "y");
  const Report report =
      checked([&] { run(1, 1, [p = x.get(), q = y.get()] { read_at(p, q, 1000L * 1000 * 1000); }); });
  const auto found = of_kind(report, "global_oob_read");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].line == kReadAtLine);
  CHECK(
      found[0].message.find("which is not inside any allocation; the nearest buffer: read of 4 bytes at ") !=
      std::string::npos);
  CHECK(found[0].message.find("bytes past the end of") != std::string::npos);
}
