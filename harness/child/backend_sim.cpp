// The simulator child: buffers and guards are labelled for the memory checker, and the simulator's
// report for the launcher goes into the case record.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

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

cudaError_t runner_memcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  sim::harness::runner_copy(dst, src, bytes);
  return cudaSuccess;
}

// The simulator's device memory is the host's: the runner reads and writes it in place (a large case's
// buffers are tens of megabytes; images of them cost page faults and copies on every case).
cudaError_t runner_fill(void* dst, uint32_t bits, size_t elements, size_t element_bytes) {
  auto* out = static_cast<std::byte*>(dst);
  for (size_t i = 0; i < elements; ++i) std::memcpy(out + i * element_bytes, &bits, element_bytes);
  return cudaSuccess;
}

cudaError_t runner_count_differences(const void* a, const void* b, size_t elements, size_t element_bytes,
                                     int64_t& differences) {
  const auto* x = static_cast<const std::byte*>(a);
  const auto* y = static_cast<const std::byte*>(b);
  differences = 0;
  if (std::memcmp(x, y, elements * element_bytes) == 0) return cudaSuccess;  // the usual case
  for (size_t i = 0; i < elements; ++i)
    differences += std::memcmp(x + i * element_bytes, y + i * element_bytes, element_bytes) != 0;
  return cudaSuccess;
}

void learner_code_loaded(const void* launcher) {
  sim::harness::learner_code_loaded(launcher);
}

void begin_launcher(const std::vector<GuardedBuffer>& inputs, const std::vector<GuardedBuffer>& outputs) {
  sim::harness::begin_launcher();
  for (const auto* buffers : {&inputs, &outputs}) {
    for (const GuardedBuffer& b : *buffers) {
      sim::harness::label_allocation(b.base(), b.name().c_str());
      sim::harness::mark_guard(b.base(), b.guard_bytes(), b.name().c_str());
      sim::harness::mark_guard(b.end(), b.guard_bytes(), b.name().c_str());
    }
  }
  for (const GuardedBuffer& b : inputs) sim::harness::mark_input(b.base());
  for (const GuardedBuffer& b : outputs) sim::harness::mark_output(b.base());
  sim::harness::launcher_starts();
}

void set_estimating(bool on) {
  sim::harness::set_estimating(on);
}

void launcher_returned(protocol::CaseRecord&) {
  sim::harness::launcher_returned();  // a finding in the report, if any
}

void end_launcher(protocol::CaseRecord& record) {
  const sim::harness::Report report = sim::harness::end_launcher();
  record.scratch_bytes = report.scratch_peak_bytes;
  record.scratch_allocated_bytes = report.scratch_allocated_bytes;
  record.kernel_launches = std::count_if(report.launches.begin(), report.launches.end(),
                                         [](const sim::harness::LaunchRecord& l) { return l.error.empty(); });
  record.sim = to_json(report);
  // The findings that say the outputs are not the kernels' work, or that data left the device (host
  // code reading device memory, a kernel reaching host memory), refuse the case as on the GPU.
  static constexpr std::string_view kRefusing[] = {"host_data_in_output", "copy_to_host",
                                                   "unfinished_stream_work", "host_access_to_device",
                                                   "kernel_access_to_host"};
  for (const sim::harness::Finding& f : report.findings) {
    if (std::find(std::begin(kRefusing), std::end(kRefusing), f.kind) == std::end(kRefusing)) continue;
    const std::string where = f.line > 0 ? "line " + std::to_string(f.line) + " of " +
                                               std::filesystem::path(f.file).filename().string() + ": "
                                         : "";
    record.refused.push_back(where + f.message);
  }
}

}  // namespace puzzle::child
