// The simulator child: buffers and guards are labelled for the memory checker, and the simulator's
// report for the launcher goes into the case record.
#include "backend.hpp"
#include "sim/harness_api.h"
#include "sim_report_json.hpp"

namespace puzzle::child {

const char* const kBackend = "sim";

cudaError_t runner_malloc(void** ptr, size_t bytes) {
  return cudaMalloc(ptr, bytes);
}

cudaError_t runner_free(void* ptr) {
  return cudaFree(ptr);
}

void begin_launcher(const std::vector<GuardedBuffer>& inputs, const std::vector<GuardedBuffer>& outputs) {
  sim::harness::begin_launcher();
  constexpr size_t kGuardBytes = protocol::kGuardElems * sizeof(float);
  for (const auto* buffers : {&inputs, &outputs}) {
    for (const GuardedBuffer& b : *buffers) {
      sim::harness::label_allocation(b.base(), b.name().c_str());
      sim::harness::mark_guard(b.base(), kGuardBytes, b.name().c_str());
      sim::harness::mark_guard(b.data() + b.elements(), kGuardBytes, b.name().c_str());
    }
  }
}

void end_launcher(protocol::CaseRecord& record) {
  const sim::harness::Report report = sim::harness::end_launcher();
  record.scratch_bytes = report.scratch_peak_bytes;
  record.sim = to_json(report);
}

}  // namespace puzzle::child
