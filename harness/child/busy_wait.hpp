// Timing the GPU's work, not the host's launch path: CUDA events around a launch on an idle GPU also
// count the microseconds the launch takes to reach it, which a kernel of 100 us cannot afford.
#pragma once
#include <cuda_runtime.h>

namespace puzzle::child {

// How long the busy-wait keeps the GPU busy: several launch latencies (about 4 us on an H100), so that
// the start event and the timed launches are queued behind it before it ends.
constexpr int kBusyWaitMicroseconds = 20;

// Enqueues, on the default stream, one thread that spins for kBusyWaitMicroseconds. Record the start
// event and launch the timed work right after it: they run back to back once it ends.
cudaError_t enqueue_busy_wait();

}  // namespace puzzle::child
