// The speed estimate's model on hand-made counts: occupancy, the caches, the binding limit, the reasons a
// kernel is slow, names.
#include <doctest/doctest.h>

#include "cache_model.hpp"
#include "occupancy.hpp"
#include "slow_reasons.hpp"
#include "time_model.hpp"

namespace {

using namespace puzzle::perf;

const GpuSpec& h100() {
  return *find_gpu("h100");
}

// A copy of `rows` rows of `cols` floats, a block of 256 threads per row, all of them simulated: each warp
// loads and stores its 32 floats once per 256 columns, 4 sectors a request.
LaunchWork copy_rows(uint64_t rows, uint64_t cols) {
  LaunchWork w;
  w.kernel = "copy";
  w.grid = {rows, 1, 1};
  w.block = {256, 1, 1};
  w.blocks_simulated = rows;
  const double requests = rows * cols / 32.0;
  w.load_requests = w.store_requests = requests;
  w.load_sectors = w.store_sectors = 4 * requests;
  w.lines = 2 * requests;
  w.load_bytes = w.store_bytes = 128 * requests;
  w.first_load_sectors = w.first_store_sectors = 4 * requests;
  w.footprint_load_bytes = w.footprint_store_bytes = rows * cols * 4.0;
  w.per_warp[static_cast<size_t>(Work::global)] = 2 * requests;
  w.per_warp[static_cast<size_t>(Work::ops)] = 4 * requests;
  w.longest_thread[static_cast<size_t>(Work::global)] = 2.0 * cols / 256;
  w.longest_thread[static_cast<size_t>(Work::ops)] = 4.0 * cols / 256;
  w.load_reuse.assign(40, 0);
  return w;
}

}  // namespace

TEST_CASE("kernel names as launches and nvcc write them") {
  CHECK(kernel_spelling("ns::attention<64, true>") == "attention<64,true>");
  CHECK(kernel_spelling("void (anonymous namespace)::f<Config<1, 2>>(float const*, int)") ==
        "f<Config<1,2>>");
  CHECK(kernel_base_name("void (anonymous namespace)::f<Config<1, 2>>(float const*, int)") == "f");
  CHECK(kernel_base_name("row_softmax_kernel") == "row_softmax_kernel");
}

TEST_CASE("occupancy: the resource that runs out first") {
  const GpuSpec& gpu = h100();
  CHECK(occupancy(gpu, 256, 0, 32).blocks_per_sm == 8);  // 2048 threads
  CHECK(occupancy(gpu, 256, 0, 32).limited_by == "threads");
  const Occupancy registers = occupancy(gpu, 256, 0, 79);  // 80 x 32 x 8 = 20480 a block
  CHECK(registers.blocks_per_sm == 3);
  CHECK(registers.limited_by == "registers");
  CHECK(registers.warps_per_sm == 24);
  const Occupancy shared = occupancy(gpu, 128, 100 * 1024, 32);  // 101 KiB a block of 228
  CHECK(shared.blocks_per_sm == 2);
  CHECK(shared.limited_by == "shared memory");
  CHECK(occupancy(gpu, 32, 0, 16).blocks_per_sm == 32);             // at most 32 blocks
  CHECK(occupancy(gpu, 1024, 300 * 1024, 255).blocks_per_sm == 1);  // never less than one
}

TEST_CASE("a large copy is bound by DRAM bandwidth at the copy's speed") {
  const LaunchWork w = copy_rows(8192, 8192);
  const Estimate e = estimate(h100(), {w}, {});
  REQUIRE(e.launches.size() == 1);
  CHECK(e.launches[0].binding == Limit::dram);
  const double bytes = 2 * 8192.0 * 8192 * 4;
  CHECK(e.seconds == doctest::Approx(bytes / h100().dram_bytes_per_s).epsilon(0.1));
  CHECK(e.launches[0].sectors_per_request == doctest::Approx(4));
  CHECK(e.launches[0].sector_use == doctest::Approx(1));
  // An H200 moves the same bytes faster.
  CHECK(estimate(*find_gpu("h200"), {w}, {}).seconds < e.seconds);
}

TEST_CASE("one block of one thread is latency-bound, and its reason says so") {
  LaunchWork serial = copy_rows(1, 8192 * 8192);
  serial.block = {1, 1, 1};
  serial.longest_thread[static_cast<size_t>(Work::global)] = 2.0 * 8192 * 8192;
  const Estimate slow = estimate(h100(), {serial}, {});
  const Estimate fast = estimate(h100(), {copy_rows(8192, 8192)}, {});
  REQUIRE(slow.longest());
  CHECK(slow.longest()->binding == Limit::latency);
  CHECK(slow.longest()->busy_sms == 1);
  CHECK(slow.seconds > 100 * fast.seconds);
  CHECK(slow_reason(slow, fast, h100()) == "one block: 1 of 132 SMs busy, one thread per block");
  CHECK(bound_words(Limit::latency) == "latency-bound");
}

TEST_CASE("a warp that touches 32 sectors and uses an eighth of them is called uncoalesced") {
  LaunchWork strided = copy_rows(8192, 8192);
  strided.load_sectors *= 8;
  strided.store_sectors *= 8;
  strided.lines *= 32;
  const Estimate slow = estimate(h100(), {strided}, {});
  REQUIRE(slow.longest());
  CHECK(slow.longest()->sector_use == doctest::Approx(0.125));
  CHECK(slow.longest()->binding == Limit::memory_pipe);
  const std::string reason = slow_reason(slow, estimate(h100(), {copy_rows(8192, 8192)}, {}), h100());
  CHECK(reason.starts_with("uncoalesced: a warp's access touches 32.0 sectors"));
}

TEST_CASE("nvcc's registers decide occupancy; a launch named by a template parameter gets the file's most") {
  const LaunchWork w = copy_rows(8192, 1024);
  const Estimate assumed = estimate(h100(), {w}, {});
  CHECK_FALSE(assumed.launches[0].registers_measured);
  const Estimate measured = estimate(h100(), {w}, {{"copy", {.registers = 128}}});
  CHECK(measured.launches[0].registers == 128);
  CHECK(measured.launches[0].occupancy.blocks_per_sm == 2);
  LaunchWork named = w;
  named.kernel = "kernel";  // a launcher's template parameter
  const Estimate fallback =
      estimate(h100(), {named}, {{"copy", {.registers = 128}}, {"other", {.registers = 40}}});
  CHECK(fallback.launches[0].registers == 128);
  named.function = "void copy(float const*, float*)";  // what addr2line says the kernel is
  CHECK(estimate(h100(), {named}, {{"copy", {.registers = 64}}, {"other", {.registers = 40}}})
            .launches[0]
            .registers == 64);
}

TEST_CASE("reuse within L1's reach is an L1 hit; blocks sharing data hit L2 where their working sets fit") {
  LaunchWork w = copy_rows(8192, 1024);
  w.load_reuse[3] = w.load_sectors;  // every sector loaded again 4-8 sectors later
  const Occupancy o = occupancy(h100(), 256, 0, 32);
  const MemoryTraffic near = memory_traffic(h100(), w, o, 132 * 8, ModelConstants{});
  CHECK(near.l1_hits == doctest::Approx(w.load_sectors));
  // Every block loads the same 1 MiB (attention's keys, say): one footprint, the rest L2 hits.
  LaunchWork shared = copy_rows(8192, 1024);
  shared.footprint_load_bytes = 1 << 20;
  const MemoryTraffic hits = memory_traffic(h100(), shared, o, 132 * 8, ModelConstants{});
  CHECK(hits.dram_read_bytes == doctest::Approx(1 << 20));
  CHECK(hits.l2_hits > 0);
}
