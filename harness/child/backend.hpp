// What differs between the GPU child and the simulator child: backend_gpu.cpp is linked into
// puzzle_child_gpu, backend_sim.cpp into puzzle_child_sim.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "guarded_buffer.hpp"
#include "protocol.hpp"

namespace puzzle::child {

extern const char* const kBackend;  // "gpu" or "sim", as in job.json

// The runner's own device memory, which never counts as the launcher's scratch memory, and its own
// copies, which the rules on the learner's copies (docs/grading.md, "device work") do not apply to.
cudaError_t runner_malloc(void** ptr, size_t bytes);
cudaError_t runner_free(void* ptr);
cudaError_t runner_memcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
// On the runner's device memory, elements of 2 or 4 bytes: set each to `bits` (its low bytes); count those
// that differ between `a` and `b`. The GPU does them on the device (device_fill.hpp).
cudaError_t runner_fill(void* dst, uint32_t bits, size_t elements, size_t element_bytes);
cudaError_t runner_count_differences(const void* a, const void* b, size_t elements, size_t element_bytes,
                                     int64_t& differences);

// Once the learner's shared object is loaded: where its code is (the simulator names its lines).
void learner_code_loaded(const void* launcher);

// Around one call of the learner's launcher: `begin_launcher` tells the checker which buffers and
// guard zones are ours; `launcher_returned`, called before anything waits for the device, notes work
// the launcher left running on streams of its own; `end_launcher` fills in what was measured (scratch
// memory, kernels launched, refused copies, the sim report).
void begin_launcher(const std::vector<GuardedBuffer>& inputs, const std::vector<GuardedBuffer>& outputs);
// The simulator's speed estimate for the launches that follow (protocol::Job::estimate); the GPU has none.
void set_estimating(bool on);
void launcher_returned(protocol::CaseRecord& record);
void end_launcher(protocol::CaseRecord& record);

}  // namespace puzzle::child
