// The speed estimate's counts (sim/src/runtime_api/estimate.hpp): warp requests and sectors of global
// memory, reuse within a block, the grid's footprint, the block sample, work per warp, and the budgets.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <bit>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

// While estimating: the launcher's launches, sampled and counted.
template <class Launcher>
Report estimated(Launcher&& launcher) {
  sim::harness::set_estimating(true);
  Report report = checked(launcher);
  sim::harness::set_estimating(false);
  return report;
}

void copy_rows(const float* x, float* y, int cols) {  // a block per row, coalesced
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[blockIdx.x * cols + c] = x[blockIdx.x * cols + c];
}

void copy_columns(const float* x, float* y, int rows, int cols) {  // a thread per row: 32 rows a warp
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  for (int c = 0; c < cols; ++c) y[row * cols + c] = x[row * cols + c];
}

void read_twice(const float* x, float* y, int cols) {  // a block per row, the row read twice
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[blockIdx.x * cols + c];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[blockIdx.x * cols + c] = x[blockIdx.x * cols + c] + s;
}

uint64_t reused(const sim::harness::LaunchWork& w) {
  uint64_t n = 0;
  for (uint64_t bin : w.load_reuse) n += bin;
  return n;
}

}  // namespace

TEST_CASE("a coalesced warp's request touches 4 sectors; a thread per row touches 32") {
  constexpr int rows = 64, cols = 256;
  GuardedBuffer x(rows * cols, "x"), y(rows * cols, "y");
  const Report coalesced = estimated([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(rows), dim3(256), 0), "copy_rows",
                  [=, px = x.get(), py = y.get()] { copy_rows(px, py, cols); });
  });
  REQUIRE(coalesced.work.size() == 1);
  const sim::harness::LaunchWork& w = coalesced.work[0];
  CHECK(w.blocks_simulated == rows);   // 64 blocks: the whole grid
  CHECK(w.load_requests == rows * 8);  // 8 warps a block, one load each
  CHECK(w.load_sectors == 4 * w.load_requests);
  CHECK(w.load_bytes == 32 * w.load_sectors);
  CHECK(w.footprint_load_bytes == rows * cols * sizeof(float));
  CHECK(w.footprint_store_bytes == rows * cols * sizeof(float));
  CHECK(w.per_warp[2] == rows * 8 * 2);  // global: a load and a store per warp

  const Report strided = estimated([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(rows / 32), dim3(32), 0), "copy_columns",
                  [=, px = x.get(), py = y.get()] { copy_columns(px, py, rows, cols); });
  });
  REQUIRE(strided.work.size() == 1);
  const sim::harness::LaunchWork& s = strided.work[0];
  CHECK(s.load_requests == rows / 32 * cols);
  CHECK(s.load_sectors == 32 * s.load_requests);   // each lane its own row
  CHECK(s.load_bytes * 8 == 32 * s.load_sectors);  // 4 of every 32 bytes used
  // A lane's next column is in the sector it touched 32 sectors (a warp's request) before.
  CHECK(reused(s) > s.load_sectors / 2);
  CHECK(s.longest_thread[2] == 2 * cols);
}

TEST_CASE("a row read twice: the second read is reuse at the distance of the row") {
  constexpr int rows = 8, cols = 4096;
  GuardedBuffer x(rows * cols, "x"), y(rows * cols, "y");
  const Report report = estimated([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(rows), dim3(256), 0), "read_twice",
                  [=, px = x.get(), py = y.get()] { read_twice(px, py, cols); });
  });
  REQUIRE(report.work.size() == 1);
  const sim::harness::LaunchWork& w = report.work[0];
  const uint64_t row_sectors = cols * sizeof(float) / 32;
  CHECK(w.first_load_sectors == rows * row_sectors);
  CHECK(reused(w) == rows * row_sectors);
  // The stores go to y in between: each sector comes back after about a row's worth of loads and stores.
  const size_t bin = std::bit_width(row_sectors);
  CHECK(w.load_reuse[bin] + w.load_reuse[bin + 1] == rows * row_sectors);
}

TEST_CASE("a large grid is sampled, its footprint scaled; the counts are the sample's") {
  constexpr int rows = 4096, cols = 256;
  GuardedBuffer x(rows * cols, "x"), y(rows * cols, "y");
  const Report report = estimated([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(rows), dim3(256), 0), "copy_rows",
                  [=, px = x.get(), py = y.get()] { copy_rows(px, py, cols); });
  });
  REQUIRE(report.work.size() == 1);
  const sim::harness::LaunchWork& w = report.work[0];
  CHECK(w.blocks_simulated == 64);
  CHECK(w.load_requests == 64 * 8);
  CHECK(w.footprint_load_bytes == rows * cols * sizeof(float));  // 64 rows scaled by 64, at most x's size
  CHECK_FALSE(w.cut_short);
}

TEST_CASE("a block past the budget is stopped: the estimate is then a lower bound") {
  constexpr int rows = 1, cols = (24 << 20) + 16;  // one thread: more global accesses than a block may make
  GuardedBuffer x(cols, "x");
  const Report report = estimated([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(1), 0), "sum", [=, px = x.get()] {
      float s = 0;
      for (int c = 0; c < rows * cols; ++c) s += px[c];
      px[0] = s;
    });
  });
  REQUIRE(report.work.size() == 1);
  CHECK(report.work[0].cut_short);
  CHECK(report.findings.empty());
}

TEST_CASE("outside an estimate nothing is counted") {
  GuardedBuffer x(256, "x"), y(256, "y");
  const Report report = checked([&] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(256), 0), "copy_rows",
                  [=, px = x.get(), py = y.get()] { copy_rows(px, py, 256); });
  });
  CHECK(report.work.empty());
}
