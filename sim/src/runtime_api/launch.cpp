// Kernel launches: validate like CUDA, run every block on the host thread pool, log the launch.
#include "runtime_api/launch.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <utility>

#include "cuda_runtime_api.h"
#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"
#include "execution/crash_handler.hpp"
#include "execution/host_thread_pool.hpp"
#include "memory/checker.hpp"
#include "memory/host_reach.hpp"
#include "runtime_api/errors.hpp"
#include "runtime_api/estimate.hpp"
#include "runtime_api/function_attributes.hpp"
#include "runtime_api/launch_validation.hpp"
#include "runtime_api/streams.hpp"

namespace sim {
namespace {

struct LaunchLog {
  std::mutex mutex;
  std::vector<harness::LaunchRecord> records;
  std::atomic<uint64_t> switches{0}, threads{0};
};

LaunchLog& launch_log() {
  static LaunchLog log;
  return log;
}

void log_launch(harness::LaunchRecord record) {
  memory::device_heap.note_launch();  // the scratch the launcher holds is in use now
  LaunchLog& log = launch_log();
  std::lock_guard lock(log.mutex);
  log.records.push_back(std::move(record));
}

harness::LaunchRecord launch_record(const LaunchInfo& launch) {
  harness::LaunchRecord r;
  r.kernel = launch.kernel;
  r.grid[0] = launch.grid.x, r.grid[1] = launch.grid.y, r.grid[2] = launch.grid.z;
  r.block[0] = launch.block.x, r.block[1] = launch.block.y, r.block[2] = launch.block.z;
  r.dynamic_shared = launch.dynamic_shared;
  r.file = launch.where.file_name();
  r.line = static_cast<int>(launch.where.line());
  return r;
}

// One launch as the host threads share it: they take blocks in order until none is left.
struct Grid {
  const LaunchInfo* launch;
  size_t dynamic_shared_limit;
  KernelBody body;
  const void* closure;
  uint64_t blocks;
  std::atomic<uint64_t> next_block{0};
  std::atomic<bool> refused{false};               // the memory checker refused a block's shared memory
  const estimate::BlockSample* sample = nullptr;  // while estimating: the blocks that run
  std::atomic<uint64_t> ran{0};
};

void run_blocks(void* context) {
  Grid& grid = *static_cast<Grid*>(context);
  const dim3 g = grid.launch->grid, b = grid.launch->block;
  BlockRunner& runner = BlockRunner::for_this_thread();
  uint64_t ran = 0;
  for (uint64_t n; (n = grid.next_block.fetch_add(1)) < grid.blocks;) {
    uint64_t i = n;
    if (grid.sample) {
      const std::optional<uint64_t> sampled = grid.sample->block(n);
      if (!sampled) break;
      i = *sampled;
    }
    const uint3 block_idx{static_cast<unsigned>(i % g.x), static_cast<unsigned>(i / g.x % g.y),
                          static_cast<unsigned>(i / (uint64_t{g.x} * g.y))};
    if (!runner.run(*grid.launch, block_idx, grid.dynamic_shared_limit, grid.body, grid.closure)) {
      grid.refused = true;
      grid.next_block = grid.blocks;
      break;
    }
    ++ran;
  }
  grid.ran += ran;
  launch_log().switches += runner.take_switches();
  launch_log().threads += ran * b.x * b.y * b.z;
}

void refuse(const LaunchInfo& launch, harness::LaunchRecord record, cudaError_t error, const char* kind,
            const std::string& message) {
  record_error(error);
  report(Severity::error, kind, where_of(launch.where), message);
  record.error = cudaGetErrorName(error);
  log_launch(std::move(record));
}

}  // namespace

void launch_kernel(const LaunchConfig& config, const char* kernel, KernelBody body, const void* closure,
                   size_t closure_bytes) {
  install_crash_handlers();  // done before main already; calling it here links the handlers in
  const LaunchInfo launch{kernel, config.grid, config.block, config.shared, config.where};
  harness::LaunchRecord record = launch_record(launch);
  if (current_thread()) {
    refuse(launch, std::move(record), cudaErrorNotSupported, "launch_from_device",
           std::string("kernel ") + kernel +
               " launched from device code: the simulator does not support dynamic parallelism.");
    return;
  }
  const size_t limit = max_dynamic_shared_bytes();
  if (auto refusal = check_launch(launch, limit)) {
    refuse(launch, std::move(record), refusal->error, refusal->kind, refusal->message);
    return;
  }
  const memory::RuntimeWork open;  // the kernel's device memory, closed to the launcher's host code
  memory::begin_launch();
  memory::set_launch_parameters(closure, closure_bytes);
  Grid grid{&launch, limit, body, closure, uint64_t{launch.grid.x} * launch.grid.y * launch.grid.z};
  std::optional<estimate::BlockSample> sample;
  if (estimate::on()) {
    sample.emplace(launch.grid);
    grid.sample = &*sample;
    grid.blocks = sample->size();
  }
  const unsigned participants =
      static_cast<unsigned>(std::min<uint64_t>(grid.blocks, HostThreadPool::instance().size()));
  HostThreadPool::instance().run(participants, &run_blocks, &grid);
  note_stream_launch(config.stream);
  record.static_shared = memory::static_shared_bytes();
  record_error(memory::kernel_fault());  // the kernel stopped at a misaligned access or a __trap()
  if (sample) estimate::finish_launch(launch, record.static_shared, grid.ran);
  if (grid.refused) {
    record_error(cudaErrorInvalidValue);  // the memory checker has reported why
    record.error = cudaGetErrorName(cudaErrorInvalidValue);
  }
  log_launch(std::move(record));
}

std::vector<harness::LaunchRecord> take_launch_log() {
  LaunchLog& log = launch_log();
  std::lock_guard lock(log.mutex);
  return std::exchange(log.records, {});
}

uint64_t take_context_switches() {
  return launch_log().switches.exchange(0);
}
uint64_t take_simulated_threads() {
  return launch_log().threads.exchange(0);
}

}  // namespace sim
