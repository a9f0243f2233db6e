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

struct Report {
  std::vector<Finding> findings;
  std::vector<Traffic> traffic;
  std::vector<LaunchRecord> launches;
  std::vector<SharedWavefronts> shared_wavefronts;  // lines with shared-memory accesses, in source order
  uint64_t scratch_peak_bytes = 0;                  // device memory the launcher allocated, at its peak
  uint64_t scratch_live_bytes = 0;                  // of which still allocated when the launcher returned
  uint64_t context_switches = 0;                    // fiber switches, for the throughput figure
  uint64_t simulated_threads = 0;
};

void label_allocation(const void* device_ptr, const char* label);          // names a buffer
void mark_guard(const void* device_ptr, size_t bytes, const char* label);  // kernels must not touch it
// The outputs the launcher gets: copies of host data into one are refused (host_data_in_output), so that
// outputs come from kernels.
void mark_output(const void* device_ptr);
// The runner's own copies (inputs up, outputs back), which the rules above do not apply to.
void runner_copy(void* dst, const void* src, size_t bytes);
// Right after the launcher returns: work it queued on a stream of its own and never waited for is a
// finding (unfinished_stream_work): a GPU would still be running it when the harness reads the outputs.
void launcher_returned();
// The learner's code is the shared object that holds `launcher`: findings and crashes name its lines, and
// from now on every copy from the device to the host is refused (copy_to_host), and so is a kernel's access
// to host memory (kernel_access_to_host).
void learner_code_loaded(const void* launcher);
void begin_launcher();  // clears findings, traffic and launch log; new allocations count as scratch
Report end_launcher();  // what happened since begin_launcher, symbolized

}  // namespace sim::harness
