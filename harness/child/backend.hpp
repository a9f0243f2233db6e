// What differs between the GPU child and the simulator child: backend_gpu.cpp is linked into
// puzzle_child_gpu, backend_sim.cpp into puzzle_child_sim.
#pragma once
#include <cstddef>
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

// Around one call of the learner's launcher: `begin_launcher` tells the checker which buffers and
// guard zones are ours; `launcher_returned`, called before anything waits for the device, notes work
// the launcher left running on streams of its own; `end_launcher` fills in what was measured (scratch
// memory, kernels launched, refused copies, the sim report).
void begin_launcher(const std::vector<GuardedBuffer>& inputs, const std::vector<GuardedBuffer>& outputs);
void launcher_returned(protocol::CaseRecord& record);
void end_launcher(protocol::CaseRecord& record);

}  // namespace puzzle::child
