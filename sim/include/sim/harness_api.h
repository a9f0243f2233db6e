// What the child runner asks of the simulator. Learner code never includes this.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sim::harness {

struct Finding {
  std::string severity;  // "error" (the case fails) or "warning" (shown, does not fail by itself)
  std::string kind;      // stable id, e.g. "global_oob_write"; the list is in docs/simulator.md
  std::string message;   // one line: what happened, to which buffer, how far out
  std::string file;      // learner's file (empty if unknown)
  int line = 0;
  int block[3] = {-1, -1, -1};  // -1 when it happened outside a kernel
  int thread[3] = {-1, -1, -1};
  uint64_t count = 1;  // occurrences folded into this finding
};

struct Traffic {  // global memory moved by kernels, per labelled allocation
  std::string label;
  uint64_t size = 0;  // bytes of the allocation (without guards)
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
};

// Shared-memory wavefronts of the warp instructions at one source line (loads, stores, ldmatrix):
// `wavefronts - ideal_wavefronts` is the bank conflicts' cost (Nsight Compute's
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared counts the same extra wavefronts).
struct SharedWavefronts {
  std::string file;
  int line = 0;
  uint64_t instructions = 0;  // warp-level executions
  uint64_t wavefronts = 0;
  uint64_t ideal_wavefronts = 0;
  // Lanes of one warp ran this line different numbers of times between two barriers (a conditional access
  // in a loop). Executions are paired by count, which may pair some the hardware runs apart: the figure
  // is then an estimate, possibly high.
  bool uneven = false;
};

struct LaunchRecord {
  std::string kernel;
  unsigned grid[3] = {0, 0, 0};
  unsigned block[3] = {0, 0, 0};
  size_t dynamic_shared = 0;
  size_t static_shared = 0;
  std::string file;
  int line = 0;
  std::string error;  // CUDA error name when the launch was refused, else empty
};

// What the speed estimate counted in one kernel launch (set_estimating), over the blocks it simulated: a
// sample of the grid spread over it. The parent's model (harness/perf) scales the counts to the grid.
struct LaunchWork {
  std::string kernel;
  unsigned grid[3] = {0, 0, 0};
  unsigned block[3] = {0, 0, 0};
  size_t dynamic_shared = 0;
  size_t static_shared = 0;
  uint64_t blocks_simulated = 0;
  // A PC inside the kernel (0: it touched no global memory), as an offset into the program's file: the
  // parent asks addr2line which function the kernel is.
  uint64_t kernel_offset = 0;
  bool cut_short = false;  // a block was stopped at the estimate's access budget: counts are a lower bound
  // By kind of work (sim/src/core/work_counters.hpp: ops, special, global, shared, collective, barrier,
  // tensor, tensor_flops, indexes, wgmma_flops): summed over warps of the most any lane did, the most one
  // thread did, and summed over blocks of the most one thread of the block did (blocks of a causal grid
  // differ).
  uint64_t per_warp[10] = {};
  uint64_t longest_thread[10] = {};
  uint64_t block_longest[10] = {};
  // Global memory, per warp request: 32-byte sectors (coalescing); loaded sectors the block had touched
  // before, by std::bit_width of the sectors it touched in between (reuse distance, for the caches); and
  // the sectors new to their block.
  uint64_t load_requests = 0, store_requests = 0, load_sectors = 0, store_sectors = 0;
  uint64_t lines = 0;                        // distinct 128-byte lines per request (loads and stores), summed
  uint64_t load_bytes = 0, store_bytes = 0;  // the bytes the lanes asked for
  // A lane polled one address hundreds of times: the blocks wait for one another, which the simulator runs
  // a few at a time, so a waiting block may do work another would have done (the counts are then high).
  bool waits_for_blocks = false;
  std::vector<uint64_t> load_reuse;
  uint64_t first_load_sectors = 0, first_store_sectors = 0;
  // The whole grid's distinct bytes loaded and stored (the sample's, scaled), each buffer at most its size.
  uint64_t footprint_load_bytes = 0, footprint_store_bytes = 0;
  uint64_t shared_requests = 0, shared_wavefronts = 0, shared_ideal_wavefronts = 0;
};

struct Report {
  std::vector<Finding> findings;
  std::vector<Traffic> traffic;
  std::vector<LaunchRecord> launches;
  std::vector<SharedWavefronts> shared_wavefronts;  // lines with shared-memory accesses, in source order
  // Device memory the launcher held at its peak: its allocations plus those earlier calls made and kept.
  uint64_t scratch_peak_bytes = 0;
  uint64_t scratch_live_bytes = 0;  // of which still held when the launcher returned
  // The peak of this call's own allocations (the scratch budget's figure: a kept workspace is not counted).
  uint64_t scratch_allocated_bytes = 0;
  uint64_t context_switches = 0;  // fiber switches, for the throughput figure
  uint64_t simulated_threads = 0;
  std::vector<LaunchWork> work;  // while estimating: one per launch
};

void label_allocation(const void* device_ptr, const char* label);          // names a buffer
void mark_guard(const void* device_ptr, size_t bytes, const char* label);  // kernels must not touch it
// The outputs the launcher gets: copies of host data into one are refused (host_data_in_output), so that
// outputs come from kernels.
void mark_output(const void* device_ptr);
// A case's inputs, which kernels must leave as they are (the runner compares them after the launcher):
// their reads are not tracked for races, a write to them being a failure already.
void mark_input(const void* device_ptr);
// The runner's own copies (inputs up, outputs back), which the rules above do not apply to.
void runner_copy(void* dst, const void* src, size_t bytes);
// Right before the launcher runs: device memory is closed to host code until it returns, as a GPU's is
// (its C library calls are not instrumented: mempcpy from a device pointer would read the data).
void launcher_starts();
// Right after the launcher returns (device memory open again): work it queued on a stream of its own and
// never waited for is a finding (unfinished_stream_work): a GPU would still be running it when the harness
// reads the outputs.
void launcher_returned();
// The learner's code is the shared object that holds `launcher`: findings and crashes name its lines, and
// from now on every copy from the device to the host is refused (copy_to_host), and so is a kernel's access
// to host memory (kernel_access_to_host).
void learner_code_loaded(const void* launcher);
// The speed estimate: while on, every launch runs a sample of its blocks, counts their work and keeps the
// warps in step (a GPU's order of accesses), and its counts go into Report::work.
void set_estimating(bool on);
void begin_launcher();  // clears findings, traffic and launch log; new allocations count as scratch
Report end_launcher();  // what happened since begin_launcher, symbolized

}  // namespace sim::harness
