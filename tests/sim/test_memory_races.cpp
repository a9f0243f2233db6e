// Race detection on shared memory: barriers and warp collectives order accesses, atomics do not
// race with each other, and threads touching different bytes of one word do not race.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

// Each thread writes its slot, then reads the slot of the thread 32 places on (another warp).
void rotate_by_a_warp(float* y, bool barrier) {
  static ::sim::SharedSite s_site{"s", __LINE__};
  auto& s = ::sim::shared_var<float[64]>(s_site);
  const unsigned t = threadIdx.x;
  s[t] = static_cast<float>(t);
  if (barrier) __syncthreads();
  y[t] = s[(t + 32) % 64];
}
constexpr int kRotateWriteLine = __LINE__ - 4;
constexpr int kRotateReadLine = __LINE__ - 3;

// The same inside one warp: lane i reads what lane i + 1 wrote.
void rotate_by_a_lane(float* y, bool syncwarp) {
  static ::sim::SharedSite s_site{"s", __LINE__};
  auto& s = ::sim::shared_var<float[32]>(s_site);
  const unsigned lane = threadIdx.x;
  s[lane] = static_cast<float>(lane);
  if (syncwarp) __syncwarp();
  y[lane] = s[(lane + 1) % 32];
}

void count_with_atomics(float* y) {
  static ::sim::SharedSite count_site{"count", __LINE__};
  auto& count = ::sim::shared_var<int>(count_site);
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0) y[blockIdx.x] = static_cast<float>(count);
}

void read_while_counting(float* y) {
  static ::sim::SharedSite count_site{"count", __LINE__};
  auto& count = ::sim::shared_var<int>(count_site);
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  y[threadIdx.x] = static_cast<float>(count);
}

// Neighbouring threads write neighbouring bytes of the same words.
void bytes_per_thread(float* y) {
  static ::sim::SharedSite flags_site{"flags", __LINE__};
  auto& flags = ::sim::shared_var<unsigned char[128]>(flags_site);
  flags[threadIdx.x] = static_cast<unsigned char>(threadIdx.x);
  __syncthreads();
  y[threadIdx.x] = flags[127 - threadIdx.x];
}

}  // namespace

TEST_CASE("a missing __syncthreads between a write and another warp's read is a race") {
  GuardedBuffer y(64, "y");
  SUBCASE("without the barrier") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "rotate_by_a_warp",
                    [=, p = y.get()] { rotate_by_a_warp(p, false); });
    });
    const auto found = of_kind(report, "shared_race");
    REQUIRE_MESSAGE(!found.empty(), kinds(report));
    const Finding& f = found[0];
    CHECK(f.severity == "error");
    // Whichever access came second is reported, with the other one's line in the message.
    const bool read_second = f.line == kRotateReadLine;
    CHECK((read_second || f.line == kRotateWriteLine));
    const int other_line = read_second ? kRotateWriteLine : kRotateReadLine;
    CHECK(f.message.find("test_memory_races.cpp:" + std::to_string(other_line)) != std::string::npos);
    CHECK(f.message.find("no __syncthreads() separates them") != std::string::npos);
    CHECK(f.message.rfind("shared-memory race on s[", 0) == 0);
  }
  SUBCASE("with the barrier: clean") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "rotate_by_a_warp",
                    [=, p = y.get()] { rotate_by_a_warp(p, true); });
    });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    const std::vector<float> got = y.download();
    for (int t = 0; t < 64; ++t) CHECK(got[t] == static_cast<float>((t + 32) % 64));
  }
}

TEST_CASE("lanes of one warp race without __syncwarp") {
  GuardedBuffer y(32, "y");
  SUBCASE("without __syncwarp") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(32), 0), "rotate_by_a_lane",
                    [=, p = y.get()] { rotate_by_a_lane(p, false); });
    });
    const auto found = of_kind(report, "shared_race");
    REQUIRE_MESSAGE(!found.empty(), kinds(report));
    CHECK(found[0].message.find("no __syncwarp() orders them") != std::string::npos);
  }
  SUBCASE("with __syncwarp: clean") {
    const Report report = checked([&] {
      ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(32), 0), "rotate_by_a_lane",
                    [=, p = y.get()] { rotate_by_a_lane(p, true); });
    });
    CHECK_MESSAGE(report.findings.empty(), kinds(report));
    const std::vector<float> got = y.download();
    for (int lane = 0; lane < 32; ++lane) CHECK(got[lane] == static_cast<float>((lane + 1) % 32));
  }
}

TEST_CASE("atomics on shared memory do not race with each other") {
  GuardedBuffer y(3, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(3), dim3(96), 0), "count_with_atomics",
                  [=, p = y.get()] { count_with_atomics(p); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  CHECK(y.download() == std::vector<float>(3, 96.0f));
}

TEST_CASE("a plain read of a word other threads update atomically is a race") {
  GuardedBuffer y(64, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 0), "read_while_counting",
                  [=, p = y.get()] { read_while_counting(p); });
  });
  const auto found = of_kind(report, "shared_race");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].message.find("atomically") != std::string::npos);
}

TEST_CASE("threads writing different bytes of one word do not race") {
  GuardedBuffer y(128, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(128), 0), "bytes_per_thread",
                  [=, p = y.get()] { bytes_per_thread(p); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const std::vector<float> got = y.download();
  for (int t = 0; t < 128; ++t) CHECK(got[t] == static_cast<float>(127 - t));
}
