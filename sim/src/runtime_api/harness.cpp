// What the child runner asks of the simulator: names and guards for its buffers, and a report per
// launcher call.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "diagnostics/store.hpp"
#include "diagnostics/symbolize.hpp"
#include "memory/access.hpp"
#include "memory/banks.hpp"
#include "memory/heap.hpp"
#include "memory/host_reach.hpp"
#include "memory/traffic.hpp"
#include "runtime_api/copy_rules.hpp"
#include "runtime_api/estimate.hpp"
#include "runtime_api/launch.hpp"
#include "runtime_api/streams.hpp"
#include "sim/harness_api.h"

namespace sim::harness {
namespace {

memory::Allocation& allocation_holding(const void* p, size_t bytes, const char* caller) {
  const auto address = reinterpret_cast<uintptr_t>(p);
  memory::Allocation* allocation = memory::device_heap.find(address);
  if (!allocation || allocation->freed.load(std::memory_order_relaxed) ||
      !allocation->data.contains(address, bytes))
    throw std::invalid_argument(std::string(caller) + ": not inside a live cudaMalloc allocation");
  return *allocation;
}

// Guards at the buffer's ends shrink it; the others stay inner guards. A guard can reach an end
// only once its neighbour was cut off, so repeat until nothing changes.
void shrink_buffer_by_guards(memory::Allocation& allocation) {
  memory::AddressRange& buffer = allocation.buffer;
  auto& guards = allocation.inner_guards;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto guard = guards.begin(); guard != guards.end(); ++guard) {
      const bool at_start = guard->lo <= buffer.lo && guard->hi > buffer.lo;
      const bool at_end = guard->lo < buffer.hi && guard->hi >= buffer.hi;
      if (at_start) buffer.lo = std::min(guard->hi, buffer.hi);
      if (at_end && !at_start) buffer.hi = std::max(guard->lo, buffer.lo);
      if (at_start || at_end || !guard->overlaps(buffer.lo, buffer.size())) {
        guards.erase(guard);
        changed = true;
        break;
      }
    }
  }
}

}  // namespace

void label_allocation(const void* device_ptr, const char* label) {
  allocation_holding(device_ptr, 0, "label_allocation").label = label;
}

void mark_guard(const void* device_ptr, size_t bytes, const char* label) {
  memory::Allocation& allocation = allocation_holding(device_ptr, bytes, "mark_guard");
  const auto lo = reinterpret_cast<uintptr_t>(device_ptr);
  allocation.inner_guards.push_back({lo, lo + bytes});
  shrink_buffer_by_guards(allocation);
  if (allocation.label.empty()) allocation.label = label;
}

void mark_output(const void* device_ptr) {
  allocation_holding(device_ptr, 0, "mark_output").role = memory::Allocation::Role::output;
}

void mark_input(const void* device_ptr) {
  allocation_holding(device_ptr, 0, "mark_input").harness_input = true;
}

void runner_copy(void* dst, const void* src, size_t bytes) {
  std::memcpy(dst, src, bytes);  // device memory is host memory here
}

void learner_code_loaded(const void* launcher) {
  set_learner_code(launcher);
  refuse_copies_to_host();
  memory::refuse_host_memory_in_kernels();
}

void launcher_starts() {
  memory::close_to_host_code();
}

void launcher_returned() {
  memory::open_to_host_code();
  report_unfinished_streams();
}

void set_estimating(bool on) {
  estimate::set_on(on);
}

void begin_launcher() {
  clear_findings();
  memory::reset_traffic();
  memory::reset_bank_counts();
  memory::device_heap.begin_scratch();
  take_launch_log();
  take_context_switches();
  take_simulated_threads();
  estimate::take_work();
}

Report end_launcher() {
  memory::device_heap.end_scratch();
  Report report;
  report.findings = collect_findings();
  report.traffic = memory::labelled_traffic();
  report.launches = take_launch_log();
  report.shared_wavefronts = memory::bank_counts();
  report.scratch_peak_bytes = memory::device_heap.scratch_peak_bytes();
  report.scratch_live_bytes = memory::device_heap.scratch_live_bytes();
  report.scratch_allocated_bytes = memory::device_heap.scratch_allocated_peak_bytes();
  report.context_switches = take_context_switches();
  report.simulated_threads = take_simulated_threads();
  report.work = estimate::take_work();
  return report;
}

}  // namespace sim::harness
