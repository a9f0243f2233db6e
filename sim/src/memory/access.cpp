// Global-memory accesses that missed the span cache (host code, alignment, bounds, use after free),
// and the cache's counts added to their allocations.
#include "memory/access.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "core/context.hpp"
#include "diagnostics/store.hpp"
#include "memory/checker.hpp"
#include "memory/describe.hpp"
#include "memory/device_variables.hpp"

namespace sim::memory {

constinit thread_local HostThreadAccess host_thread_access;

namespace {

constinit std::atomic<cudaError_t> first_fault{cudaSuccess};
// Set before a launch's blocks start and read while they run (the host thread pool orders the two).
constinit AddressRange launch_parameters{};
constinit std::atomic<bool> host_memory_refused{false};

const char* out_of_bounds_kind(Access kind) {
  return kind == Access::read ? "global_oob_read" : "global_oob_write";
}

// "x[3]" for an address in an allocation, else the raw address.
std::string device_element(const Allocation* allocation, uintptr_t address, size_t bytes) {
  if (!allocation) {
    char hex[40];
    std::snprintf(hex, sizeof hex, "device address 0x%lx", static_cast<unsigned long>(address));
    return hex;
  }
  return element_at(name_of(*allocation).in_index, allocation->buffer.lo, address, bytes);
}

// Reports are cold and out of line: the checks that call them run on every access.
[[gnu::cold, gnu::noinline]] void report_host_access(uintptr_t address, size_t bytes, Access kind,
                                                     Where where) {
  if (count_repeat("host_access_to_device", where)) return;
  report(
      Severity::error, "host_access_to_device", where,
      access_words(kind, bytes) + " at " + device_element(device_heap.find(address), address, bytes) +
          " in host code: device memory cannot be dereferenced on the host (a GPU program would crash); copy "
          "it with cudaMemcpy");
}

[[gnu::cold, gnu::noinline]] void report_host_variable_access(const DeviceVariable& variable,
                                                              uintptr_t address, size_t bytes, Access kind,
                                                              Where where) {
  if (count_repeat("host_access_to_device", where)) return;
  report(
      Severity::error, "host_access_to_device", where,
      access_words(kind, bytes) + " at " + element_at(variable.name, variable.lo, address, bytes) +
          " in host code: " + variable.name +
          " is a __device__ variable, and host code that names one reaches only a host copy of it on a GPU, "
          "never what kernels wrote: no data leaves the device in a launcher");
}

[[gnu::cold, gnu::noinline]] void report_kernel_host_access(uintptr_t address, size_t bytes, Access kind,
                                                            Where where) {
  if (count_repeat("kernel_access_to_host", where)) return;
  char hex[40];
  std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(address));
  report(Severity::error, "kernel_access_to_host", where,
         "kernel " + access_words(kind, bytes) + " at host address " + hex +
             ", which is host memory (not from cudaMalloc, not a __device__ variable, not the thread's own "
             "local): a GPU cannot reach it and stops the kernel with cudaErrorIllegalAddress, and no data "
             "leaves the device in a launcher; the simulator stopped this block");
}

[[gnu::cold, gnu::noinline]] void report_misaligned(uintptr_t address, size_t bytes, Access kind,
                                                    Where where) {
  if (count_repeat("misaligned_access", where)) return;
  report(Severity::error, "misaligned_access", where,
         misaligned_message(kind, bytes, device_element(device_heap.find(address), address, bytes)));
}

[[gnu::cold, gnu::noinline]] void report_unallocated(uintptr_t address, size_t bytes, Access kind,
                                                     Where where) {
  const char* finding = out_of_bounds_kind(kind);
  if (count_repeat(finding, where)) return;
  std::string message = access_words(kind, bytes) + " at " + device_element(nullptr, address, bytes) +
                        ", which is not inside any allocation";
  // Far outside every buffer: an index computed wrongly by a whole dimension, named by the nearest one.
  if (const Allocation* nearest = device_heap.nearest(address))
    message +=
        "; the nearest buffer: " + outside_message(name_of(*nearest), nearest->buffer, address, bytes, kind);
  report(Severity::error, finding, where, message);
}

[[gnu::cold, gnu::noinline]] void report_use_after_free(const Allocation& allocation, uintptr_t address,
                                                        size_t bytes, Access kind, Where where) {
  if (count_repeat("use_after_free", where)) return;
  report(Severity::error, "use_after_free", where,
         access_words(kind, bytes) + " at " + device_element(&allocation, address, bytes) + " after " +
             name_of(allocation).in_sentence + " was freed (cudaFree at " +
             file_and_line(allocation.freed_file, allocation.freed_line) + ")");
}

[[gnu::cold, gnu::noinline]] void report_outside(const Allocation& allocation, uintptr_t address,
                                                 size_t bytes, Access kind, Where where) {
  const char* finding = out_of_bounds_kind(kind);
  if (count_repeat(finding, where)) return;
  report(Severity::error, finding, where,
         outside_message(name_of(allocation), allocation.buffer, address, bytes, kind));
}

bool touches_guard(const Allocation& allocation, uintptr_t address, size_t bytes) {
  return std::any_of(allocation.inner_guards.begin(), allocation.inner_guards.end(),
                     [&](const AddressRange& guard) { return guard.overlaps(address, bytes); });
}

// The largest guard-free span of the buffer around a valid access.
AddressRange safe_span(const Allocation& allocation, uintptr_t address) {
  AddressRange span = allocation.buffer;
  for (const AddressRange& guard : allocation.inner_guards) {
    if (guard.hi <= address) span.lo = std::max(span.lo, guard.hi);
    if (guard.lo > address) span.hi = std::min(span.hi, guard.lo);
  }
  return span;
}

// Adds the span's counts to its allocation and empties it.
void flush_span(CachedSpan& cached) {
  if (cached.allocation) {
    cached.allocation->bytes_read.fetch_add(cached.bytes_read, std::memory_order_relaxed);
    cached.allocation->bytes_written.fetch_add(cached.bytes_written, std::memory_order_relaxed);
  }
  cached = {};
}

void cache_and_count(Allocation& allocation, uintptr_t address, size_t bytes, Access kind) {
  HostThreadAccess& local = host_thread_access;
  CachedSpan& victim = local.spans[local.next_victim];
  local.next_victim = (local.next_victim + 1) % local.spans.size();
  flush_span(victim);
  victim.span = safe_span(allocation, address);
  victim.allocation = &allocation;
  if (kind != Access::write) victim.bytes_read = bytes;
  if (kind != Access::read) victim.bytes_written = bytes;
}

}  // namespace

void check_device_access(uintptr_t address, size_t bytes, Access kind, bool must_align, bool strong,
                         const Where& where) {
  if (!current_thread()) return report_host_access(address, bytes, kind, where);
  if (must_align && address % bytes != 0) {
    report_misaligned(address, bytes, kind, where);
    note_kernel_fault(cudaErrorMisalignedAddress);
    stop_running_block();
  }
  Allocation* allocation = device_heap.find(address);
  if (!allocation) return report_unallocated(address, bytes, kind, where);
  if (allocation->freed.load(std::memory_order_relaxed))
    return report_use_after_free(*allocation, address, bytes, kind, where);
  if (!allocation->buffer.contains(address, bytes) || touches_guard(*allocation, address, bytes))
    return report_outside(*allocation, address, bytes, kind, where);
  cache_and_count(*allocation, address, bytes, kind);
  track_global_access(*allocation, address, bytes, kind, strong, where);
}

// Whether the page of `address` is mapped: an address that is not (a null pointer's neighbourhood) faults,
// and the crash handler names it better (the failed cudaMalloc that left the pointer null).
bool mapped(uintptr_t address) {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  unsigned char resident = 0;
  return mincore(reinterpret_cast<void*>(address & ~(page - 1)), 1, &resident) == 0;
}

void check_outside_device(uintptr_t address, size_t bytes, Access kind, const Where& where) {
  if (!host_memory_refused.load(std::memory_order_relaxed)) return;
  const DeviceVariable* variable = device_variable_at(address);
  if (!current_thread()) {
    if (variable && variable->writable) report_host_variable_access(*variable, address, bytes, kind, where);
    return;
  }
  if (variable || launch_parameters.contains(address, bytes) || !mapped(address)) return;
  report_kernel_host_access(address, bytes, kind, where);
  note_kernel_fault(cudaErrorIllegalAddress);
  stop_running_block();
}

void set_launch_parameters(const void* closure, size_t bytes) {
  const auto lo = reinterpret_cast<uintptr_t>(closure);
  launch_parameters = {lo, lo + bytes};
}

void refuse_host_memory_in_kernels() {
  host_memory_refused.store(true, std::memory_order_relaxed);
}

WatchedAccessHandler watched_access_handler = nullptr;

void check_watched_access(uintptr_t address, size_t bytes, Access kind, const Where& where) {
  if (watched_access_handler) watched_access_handler(address, bytes, kind, where);
}

void note_kernel_fault(cudaError_t error) noexcept {
  cudaError_t none = cudaSuccess;
  first_fault.compare_exchange_strong(none, error);
}

cudaError_t kernel_fault() noexcept {
  return first_fault.load();
}

void clear_kernel_fault() noexcept {
  first_fault.store(cudaSuccess);
}

void flush_access_cache() {
  HostThreadAccess& local = host_thread_access;
  for (CachedSpan& cached : local.spans) flush_span(cached);
  local.next_victim = 0;
}

void on_atomic(const void* addr, size_t size, std::source_location where) {
  on_access(addr, size, Access::atomic, true, Where{where.file_name(), static_cast<int>(where.line())});
}

void on_volatile_access(const void* addr, size_t size, Access kind, const Where& where) {
  // Not checked for alignment: g++ sends a packed, unaligned volatile field here too.
  on_access(addr, size, kind, false, where, true);
  if (device_heap.contains(reinterpret_cast<uintptr_t>(addr)))
    on_strong_access(reinterpret_cast<uintptr_t>(addr), kind != Access::read);
}

}  // namespace sim::memory
