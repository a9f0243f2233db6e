// cp.async (__pipeline_memcpy_async): copies land when the issuing thread waits for their batch, with
// the checks and traffic counts of ordinary loads and stores.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cmath>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

constexpr int kThreads = 64;

// Two batches in flight: tile t + 1 is copied while tile t is used. Each thread copies 16 bytes and
// reads its neighbour's, so the barrier after the wait is needed.
void rotate_tiles(const float* x, float* y, int tiles) {
  float* ring = ::sim::dynamic_shared<float>();  // 2 stages x kThreads x 4 floats
  const int t = threadIdx.x;
  auto issue = [&](int tile) {
    if (tile < tiles)
      __pipeline_memcpy_async(ring + (tile % 2) * 4 * kThreads + 4 * t, x + (tile * kThreads + t) * 4, 16);
    __pipeline_commit();
  };
  issue(0);
  for (int tile = 0; tile < tiles; ++tile) {
    issue(tile + 1);
    __pipeline_wait_prior(1);
    __syncthreads();
    const float* stage = ring + (tile % 2) * 4 * kThreads;
    for (int k = 0; k < 4; ++k) y[(tile * kThreads + t) * 4 + k] = stage[((t + 1) % kThreads) * 4 + k];
    __syncthreads();  // the stage is copied into again two tiles later
  }
}

void read_before_wait(const float* x, float* y) {
  float* s = ::sim::dynamic_shared<float>();
  __pipeline_memcpy_async(s + threadIdx.x, x + threadIdx.x, 4);
  __pipeline_commit();
  y[threadIdx.x] = s[threadIdx.x];
  __pipeline_wait_prior(0);
}
constexpr int kReadBeforeWaitLine = __LINE__ - 3;

void no_barrier_after_wait(const float* x, float* y) {
  float* s = ::sim::dynamic_shared<float>();
  __pipeline_memcpy_async(s + threadIdx.x, x + threadIdx.x, 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  y[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}

void zero_filled_tail(const float* x, float* y) {
  float* s = ::sim::dynamic_shared<float>();
  __pipeline_memcpy_async(s + 4 * threadIdx.x, x + 4 * threadIdx.x, 16, 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  for (int k = 0; k < 4; ++k) y[4 * threadIdx.x + k] = s[4 * threadIdx.x + k];
}

void copy_to_global(const float* x, float* y) {
  __pipeline_memcpy_async(y + threadIdx.x, x + threadIdx.x, 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

void misaligned_vector(const float* x, float* y) {
  float* s = ::sim::dynamic_shared<float>();
  __pipeline_memcpy_async(s + 4 * threadIdx.x, x + 4 * threadIdx.x + 1, 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  y[threadIdx.x] = s[4 * threadIdx.x];
}

// Never waits: nothing lands.
void uncommitted_copy(const float* x, float* y) {
  float* s = ::sim::dynamic_shared<float>();
  s[threadIdx.x] = -1.0f;
  __pipeline_memcpy_async(s + threadIdx.x, x + threadIdx.x, 4);
  __pipeline_wait_prior(0);  // the copy's batch was never committed
  y[threadIdx.x] = s[threadIdx.x];
}

// Runs kernel(x, y) as one warp with `shared_floats` floats of dynamic shared memory.
Report run_warp(const char* name, void (*kernel)(const float*, float*), GuardedBuffer& x, GuardedBuffer& y,
                size_t shared_floats) {
  return checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(32), shared_floats * sizeof(float)), name,
                  [=, px = x.get(), py = y.get()] { kernel(px, py); });
  });
}

}  // namespace

TEST_CASE("cp.async double buffering copies every tile once, with no findings") {
  constexpr int tiles = 5, n = tiles * kThreads * 4;
  GuardedBuffer x(iota_floats(n), "x"), y(n, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(kThreads), 2 * 4 * kThreads * sizeof(float)),
                  "rotate_tiles", [=, px = x.get(), py = y.get()] { rotate_tiles(px, py, tiles); });
  });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const std::vector<float> got = y.download();
  for (int tile = 0; tile < tiles; ++tile)
    for (int t = 0; t < kThreads; ++t)
      for (int k = 0; k < 4; ++k)
        CHECK(got[(tile * kThreads + t) * 4 + k] ==
              static_cast<float>((tile * kThreads + (t + 1) % kThreads) * 4 + k));
  for (const sim::harness::Traffic& traffic : report.traffic)
    if (traffic.label == "x") CHECK(traffic.bytes_read == n * sizeof(float));
}

TEST_CASE("cp.async: reading the destination before the wait reads what was there before") {
  GuardedBuffer x(iota_floats(32), "x"), y(32, "y");
  const Report report = run_warp("read_before_wait", read_before_wait, x, y, 32);
  // An error (the copy is in flight), and the warning that the bytes were never written.
  for (const char* kind : {"async_copy_not_waited", "shared_uninit_read"}) {
    const auto found = of_kind(report, kind);
    REQUIRE_MESSAGE(found.size() == 1, kinds(report));
    CHECK(found[0].line == kReadBeforeWaitLine);
  }
  for (float v : y.download()) CHECK(std::isnan(v));
}

TEST_CASE("cp.async: another thread's copy needs a barrier after the wait") {
  GuardedBuffer x(iota_floats(32), "x"), y(32, "y");
  const Report report = run_warp("no_barrier_after_wait", no_barrier_after_wait, x, y, 32);
  CHECK_MESSAGE(!of_kind(report, "shared_race").empty(), kinds(report));
}

TEST_CASE("cp.async: zfill writes zeros for the last bytes and reads only the rest") {
  GuardedBuffer x(iota_floats(128), "x"), y(128, "y");
  const Report report = run_warp("zero_filled_tail", zero_filled_tail, x, y, 128);
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const std::vector<float> got = y.download();
  for (int i = 0; i < 128; ++i) CHECK(got[i] == (i % 4 < 2 ? static_cast<float>(i) : 0.0f));
  for (const sim::harness::Traffic& traffic : report.traffic)
    if (traffic.label == "x") CHECK(traffic.bytes_read == 64 * sizeof(float));
}

TEST_CASE("cp.async: a destination outside shared memory is an error") {
  GuardedBuffer x(iota_floats(32), "x"), y(32, "y");
  const Report report = run_warp("copy_to_global", copy_to_global, x, y, 0);
  const auto found = of_kind(report, "async_copy_bad_pointer");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].severity == "error");
  CHECK(found[0].count == 32);
}

TEST_CASE("cp.async: a 16-byte copy from an address not a multiple of 16 is misaligned") {
  GuardedBuffer x(iota_floats(256), "x"), y(32, "y");
  const Report report = run_warp("misaligned_vector", misaligned_vector, x, y, 128);
  CHECK_MESSAGE(!of_kind(report, "misaligned_access").empty(), kinds(report));
}

TEST_CASE("cp.async: a wait covers committed batches only") {
  GuardedBuffer x(iota_floats(32), "x"), y(32, "y");
  const Report report = run_warp("uncommitted_copy", uncommitted_copy, x, y, 32);
  // The read is the only finding: the copy it overlaps is still in flight.
  CHECK_MESSAGE(report.findings.size() == 1, kinds(report));
  CHECK(of_kind(report, "async_copy_not_waited").size() == 1);
  for (float v : y.download()) CHECK(v == -1.0f);
}
