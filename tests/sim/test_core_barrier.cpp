// __syncthreads: ordering, the counting variants, and the findings of barriers misused.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "memory_test_support.hpp"

namespace {

// Each round every thread writes its slot, then reads the slot of a thread in another warp.
void rotate_through_slots(int* slots, int* out, int rounds) {
  const unsigned n = blockDim.x, t = threadIdx.x;
  int sum = 0;
  for (int round = 0; round < rounds; ++round) {
    slots[t] = static_cast<int>(t) * 1000 + round;
    __syncthreads();
    sum += slots[(t + 33 * (round + 1)) % n];
    __syncthreads();
  }
  out[t] = sum;
}

struct Counts {
  int count, all, any;
};

void count_predicates(Counts* out) {
  const unsigned t = threadIdx.x;
  Counts c;
  c.count = __syncthreads_count(t % 3 == 0);
  c.all = __syncthreads_and(t < 1000);
  c.any = __syncthreads_or(t == 77);
  out[t] = c;
}

}  // namespace

TEST_CASE("values written before __syncthreads are seen after it by every thread") {
  constexpr int kRounds = 10;
  constexpr unsigned kThreads = 1024;
  std::vector<int> slots(kThreads), out(kThreads);
  int* ps = slots.data();
  int* po = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, kThreads), "rotate_through_slots",
                  [=]() { rotate_through_slots(ps, po, kRounds); });
  });
  CHECK(report.findings.empty());
  for (unsigned t = 0; t < kThreads; ++t) {
    int expected = 0;
    for (int round = 0; round < kRounds; ++round)
      expected += static_cast<int>((t + 33 * (round + 1)) % kThreads) * 1000 + round;
    CHECK(out[t] == expected);
  }
}

TEST_CASE("__syncthreads_count, _and and _or") {
  constexpr unsigned kThreads = 200;
  std::vector<Counts> out(kThreads);
  Counts* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, kThreads), "count_predicates", [=]() { count_predicates(p); });
  });
  CHECK(report.findings.empty());
  for (const Counts& c : out) {
    CHECK(c.count == 67);
    CHECK(c.all == 1);
    CHECK(c.any == 1);
  }
}

namespace {

void divergent_barriers(int* out) {
  if (threadIdx.x < 64) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}
constexpr int kFirstBarrierLine = __LINE__ - 6;
constexpr int kSecondBarrierLine = __LINE__ - 5;

void exit_before_barrier(int* out, int n) {
  if (static_cast<int>(threadIdx.x) >= n) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}

// A whole block leaving before the barrier, or threads leaving after the last one, is fine.
void exit_harmlessly(int* out, int n) {
  if (static_cast<int>(blockIdx.x * blockDim.x) >= n) return;
  __syncthreads();
  if (static_cast<int>(threadIdx.x) >= n) return;
  out[threadIdx.x] = 1;
}

// Lanes 0-15 wait at a shuffle for lanes 16-31, which wait at __syncthreads for lanes 0-15.
void shuffle_against_barrier(int* out) {
  if (threadIdx.x < 16) {
    out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0);
  } else {
    __syncthreads();
  }
}

}  // namespace

TEST_CASE("threads waiting at different __syncthreads are reported with both lines") {
  std::vector<int> out(128, 0);
  int* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(3, 128), "divergent_barriers", [=]() { divergent_barriers(p); });
  });
  const auto found = memory_test::of_kind(report, "barrier_divergence");
  REQUIRE(found.size() == 1);
  CHECK(found[0].count == 3);  // every block
  const std::string& m = found[0].message;
  CHECK(m.find("threads 0-63 wait at test_core_barrier.cpp:" + std::to_string(kFirstBarrierLine)) !=
        std::string::npos);
  CHECK(m.find("threads 64-127 wait at test_core_barrier.cpp:" + std::to_string(kSecondBarrierLine)) !=
        std::string::npos);
  CHECK(out[0] == 0);  // the block was abandoned at the barrier
}

TEST_CASE("threads exiting while others wait at __syncthreads are reported") {
  std::vector<int> out(128, 0);
  int* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, 128), "exit_before_barrier", [=]() { exit_before_barrier(p, 100); });
  });
  const auto found = memory_test::of_kind(report, "barrier_exit");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("threads 100-127 exited while threads 0-99 wait") != std::string::npos);
  CHECK(found[0].message.find("undefined behaviour") != std::string::npos);
  CHECK(report.findings.size() == 1);
}

TEST_CASE("exits that skip no barrier are not findings") {
  std::vector<int> out(128, 0);
  int* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(4, 128), "exit_harmlessly", [=]() { exit_harmlessly(p, 100); });
  });
  CHECK_MESSAGE(report.findings.empty(), memory_test::kinds(report));
  CHECK(out[99] == 1);
  CHECK(out[100] == 0);
}

TEST_CASE("a shuffle waiting for lanes at __syncthreads is a deadlock, reported without hanging") {
  std::vector<int> out(64, 0);
  int* p = out.data();
  const auto report = memory_test::checked([&] {
    ::sim::launch(::sim::LaunchConfig(1, 64), "shuffle_against_barrier",
                  [=]() { shuffle_against_barrier(p); });
  });
  const auto found = memory_test::of_kind(report, "deadlock");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("threads 0-15 wait at __shfl_sync") != std::string::npos);
  CHECK(found[0].message.find("threads 16-63 wait at __syncthreads()") != std::string::npos);
}

namespace {

void throw_in_kernel(int* out) {
  if (threadIdx.x == 3) throw std::runtime_error("bad index");
  out[threadIdx.x] = 1;
}

void trap_in_kernel(int* out) {
  if (blockIdx.x == 1) __trap();
  out[blockIdx.x] = 1;
}

}  // namespace

TEST_CASE("an exception or __trap ends its block with a finding; other blocks and launches go on") {
  std::vector<int> out(32, 0);
  int* p = out.data();
  auto report = memory_test::checked(
      [&] { ::sim::launch(::sim::LaunchConfig(1, 32), "throw_in_kernel", [=]() { throw_in_kernel(p); }); });
  REQUIRE(memory_test::of_kind(report, "kernel_exception").size() == 1);
  CHECK(memory_test::of_kind(report, "kernel_exception")[0].message.find("bad index") != std::string::npos);

  report = memory_test::checked(
      [&] { ::sim::launch(::sim::LaunchConfig(3, 1), "trap_in_kernel", [=]() { trap_in_kernel(p); }); });
  CHECK(memory_test::of_kind(report, "kernel_trap").size() == 1);
  CHECK(out[0] == 1);
  CHECK(out[2] == 1);
  // As on a GPU, the trap is sticky: every synchronization returns it until the device is reset.
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  cudaDeviceReset();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
}
