// Simulator throughput: a launch of 4096 blocks x 256 threads with 14 suspension points per thread
// (7 shuffles, 7 barriers). Skipped by default (timing depends on the machine); run with
//   sim_tests --test-case='throughput*' --no-skip --success
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <chrono>

#include "memory_test_support.hpp"

namespace {

void shuffle_and_sync(float* out) {
  float v = static_cast<float>(threadIdx.x);
  for (int round = 0; round < 7; ++round) {
    v += __shfl_xor_sync(0xffffffffu, v, 1 << (round % 5));
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

}  // namespace

TEST_CASE("throughput: 4096 blocks x 256 threads, 14 suspensions each" * doctest::skip()) {
  constexpr unsigned kBlocks = 4096;
  const memory_test::GuardedBuffer out(kBlocks, "out");
  float* p = out.get();
  const auto start = std::chrono::steady_clock::now();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(kBlocks, 256), "shuffle_and_sync", [=]() { shuffle_and_sync(p); });
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(report.findings.empty());
  CHECK(report.simulated_threads == kBlocks * 256);
  MESSAGE(seconds << " s, " << report.context_switches << " fiber switches: "
                  << report.context_switches / seconds / 1e6 << " million switches per second");
  CHECK(seconds < 5.0);
}
