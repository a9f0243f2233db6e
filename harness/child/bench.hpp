// Timing a perf case's launcher on the GPU (bench mode). Not built for the simulator, whose time
// says nothing about a GPU's.
#pragma once
#include <cuda_runtime.h>

#include <vector>

#include "guarded_buffer.hpp"
#include "launcher.hpp"
#include "protocol.hpp"

namespace puzzle::child {

// Runs the launcher `job.warmup` times, then times `job.reps` runs with CUDA events, rotating
// among copies of the buffers whose total exceeds 3x the L2 size, so that no run finds its data in
// L2. Each run is queued behind a busy-wait (busy_wait.hpp): its time is the GPU's, launch path
// excluded. A slow kernel gets fewer runs (at least one), so that timing it takes about 2 s at most.
// Fills record.time_ms (median) and record.times_ms; returns the first CUDA error, if any.
cudaError_t time_launcher(const protocol::Job& job, const LaunchArgs& args,
                          const std::vector<GuardedBuffer>& inputs, const std::vector<GuardedBuffer>& outputs,
                          protocol::CaseRecord& record);

}  // namespace puzzle::child
