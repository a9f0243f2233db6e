// CUDA's memory API on the simulated device: allocations, copies and sets, checked against the
// allocations they touch.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "diagnostics/report.hpp"
#include "memory/checker.hpp"
#include "memory/describe.hpp"
#include "memory/heap.hpp"
#include "memory/host_reach.hpp"
#include "runtime_api/copy_rules.hpp"
#include "runtime_api/errors.hpp"
#include "sim/memory_api.h"

namespace sim::memory {
namespace {

Where at(std::source_location where) {
  return Where{where.file_name(), static_cast<int>(where.line())};
}

bool is_device(const void* p) {
  return device_heap.contains(reinterpret_cast<uintptr_t>(p));
}

const char* kind_name(cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToHost:
      return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice:
      return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost:
      return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice:
      return "cudaMemcpyDeviceToDevice";
    default:
      return "cudaMemcpyDefault";
  }
}

std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

cudaError_t invalid(const char* kind, Where where, std::string message) {
  report(Severity::error, kind, where, std::move(message));
  return record_error(cudaErrorInvalidValue);
}

// `what`: "cudaMemcpy source", ... Reports and returns false unless [p, p + count) is live device memory.
bool valid_device_range(const void* p, size_t count, const std::string& what, Where where) {
  const auto address = reinterpret_cast<uintptr_t>(p);
  const Allocation* allocation = device_heap.find(address);
  if (!allocation || !allocation->data.contains(address, 0)) {
    invalid("memcpy_oob", where, what + " " + hex(p) + " is not inside any allocation");
    return false;
  }
  const BufferName name = name_of(*allocation);
  if (allocation->freed.load(std::memory_order_relaxed)) {
    invalid("use_after_free", where,
            what + " is in " + name.in_sentence + ", which was freed (cudaFree at " +
                file_and_line(allocation->freed_file, allocation->freed_line) + ")");
    return false;
  }
  if (!allocation->data.contains(address, count)) {
    invalid("memcpy_oob", where,
            what + " (" + std::to_string(count) + " bytes from byte " +
                std::to_string(address - allocation->data.lo) + " of " + name.in_sentence + ") runs " +
                std::to_string(address + count - allocation->data.hi) +
                " bytes past the end of its allocation (" + std::to_string(allocation->data.size()) +
                " bytes)");
    return false;
  }
  return true;
}

// A host pointer where a device pointer belongs, or the reverse.
bool right_side(const void* p, bool want_device, const std::string& what, Where where) {
  if (p && is_device(p) == want_device) return true;
  const char* expected = want_device ? "a device pointer (from cudaMalloc)" : "a host pointer";
  const char* got = !p ? "a null pointer" : want_device ? "a host pointer" : "a device pointer";
  invalid("memcpy_bad_pointer", where, what + " should be " + expected + " but is " + got);
  return false;
}

using Role = Allocation::Role;

// The copies that would let host code compute the outputs: device data to the host (any of it: host code
// never needs what kernels read or wrote), and host data into an output (directly, or through a scratch
// buffer). Reports and returns false for those; otherwise notes where the destination's bytes came from.
bool allowed_for_learner(void* dst, const void* src, cudaMemcpyKind kind, const std::string& what,
                         Where where) {
  if (kind == cudaMemcpyDeviceToHost && copies_to_host_refused()) {
    report(Severity::error, "copy_to_host", where,
           what +
               "copies device memory to the host: no data leaves the device in a launcher; the "
               "outputs must be computed by your kernels");
    return false;
  }
  Allocation* to = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice
                       ? device_heap.find(reinterpret_cast<uintptr_t>(dst))
                       : nullptr;
  const Allocation* from =
      kind == cudaMemcpyDeviceToDevice ? device_heap.find(reinterpret_cast<uintptr_t>(src)) : nullptr;
  const bool host_data = kind == cudaMemcpyHostToDevice || (from && from->holds_host_data);
  if (to && to->role == Role::output && host_data) {
    report(Severity::error, "host_data_in_output", where,
           what + "puts data from the host into " + name_of(*to).in_sentence +
               ": outputs must be computed by your kernels, not copied from the host");
    return false;
  }
  if (to && to->role == Role::scratch && host_data) to->holds_host_data = true;
  return true;
}

// `into_symbol`: dst is a __device__ or __constant__ variable, device memory on a GPU, although a host
// object here: a copy into it from device memory keeps its data on the device.
cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, const char* call, Where where,
                 bool into_symbol = false) {
  if (count == 0) return cudaSuccess;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return invalid("memcpy_bad_pointer", where,
                   std::string(call) + ": " + std::to_string(kind) + " is not a cudaMemcpyKind");
  if (kind == cudaMemcpyDefault && dst && src) {
    static constexpr cudaMemcpyKind kByPlace[2][2] = {{cudaMemcpyHostToHost, cudaMemcpyHostToDevice},
                                                      {cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice}};
    kind = kByPlace[is_device(src)][is_device(dst)];
  }
  const bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const std::string what = std::string(call) + "(..., " + kind_name(kind) + "): the ";
  if (!right_side(dst, dst_device, what + "destination", where) ||
      !right_side(src, src_device, what + "source", where))
    return cudaErrorInvalidValue;
  if (dst_device && !valid_device_range(dst, count, what + "destination", where))
    return cudaErrorInvalidValue;
  if (src_device && !valid_device_range(src, count, what + "source", where)) return cudaErrorInvalidValue;
  if (!into_symbol &&
      !allowed_for_learner(dst, src, kind, std::string(call) + "(..., " + kind_name(kind) + ") ", where))
    return record_error(cudaErrorInvalidValue);
  const RuntimeWork open;
  std::memmove(dst, src, count);
  return cudaSuccess;
}

cudaError_t set(void* p, int value, size_t count, const char* call, Where where) {
  if (count == 0) return cudaSuccess;
  const std::string what = std::string(call) + ": the destination";
  if (!right_side(p, true, what, where) || !valid_device_range(p, count, what, where))
    return cudaErrorInvalidValue;
  const RuntimeWork open;
  std::memset(p, value, count);
  return cudaSuccess;
}

// [offset, offset + count) of a symbol of `symbol_size` bytes.
bool inside_symbol(size_t symbol_size, size_t count, size_t offset, const char* call, Where where) {
  if (offset <= symbol_size && count <= symbol_size - offset) return true;
  invalid("memcpy_oob", where,
          std::string(call) + ": bytes " + std::to_string(offset) + ".." + std::to_string(offset + count) +
              " are outside the symbol (" + std::to_string(symbol_size) + " bytes)");
  return false;
}

struct PinnedHostMemory {
  std::mutex mutex;
  std::set<void*> blocks;
};

PinnedHostMemory& pinned() {
  static PinnedHostMemory instance;
  return instance;
}

}  // namespace

cudaError_t copy_to_symbol(void* symbol, size_t symbol_size, const void* src, size_t count, size_t offset,
                           cudaMemcpyKind kind, std::source_location where) {
  if (!inside_symbol(symbol_size, count, offset, "cudaMemcpyToSymbol", at(where)))
    return cudaErrorInvalidValue;
  // The symbol is an object in host memory here: a copy "to the device" is a copy to the host.
  if (kind == cudaMemcpyDefault && src)
    kind = is_device(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
  if (kind == cudaMemcpyHostToDevice) kind = cudaMemcpyHostToHost;
  const bool from_device = kind == cudaMemcpyDeviceToDevice;
  if (from_device) kind = cudaMemcpyDeviceToHost;
  return copy(static_cast<char*>(symbol) + offset, src, count, kind, "cudaMemcpyToSymbol", at(where),
              from_device);
}

cudaError_t copy_from_symbol(void* dst, const void* symbol, size_t symbol_size, size_t count, size_t offset,
                             cudaMemcpyKind kind, std::source_location where) {
  if (!inside_symbol(symbol_size, count, offset, "cudaMemcpyFromSymbol", at(where)))
    return cudaErrorInvalidValue;
  // The symbol is device memory on a GPU: copied to the host, its bytes leave the device (refused);
  // copied to device memory, they may be what the host put there (cudaMemcpyToSymbol): host data.
  if (kind == cudaMemcpyDefault && dst)
    kind = is_device(dst) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
  if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyHostToHost) {
    const std::string what = std::string("cudaMemcpyFromSymbol(..., ") + kind_name(kind) + ") ";
    if (!allowed_for_learner(dst, symbol, cudaMemcpyDeviceToHost, what, at(where)))
      return record_error(cudaErrorInvalidValue);
    kind = cudaMemcpyHostToHost;  // the symbol is an object in host memory here
  }
  if (kind == cudaMemcpyDeviceToDevice) kind = cudaMemcpyHostToDevice;
  return copy(dst, static_cast<const char*>(symbol) + offset, count, kind, "cudaMemcpyFromSymbol", at(where));
}

}  // namespace sim::memory

namespace sim {
namespace {
std::atomic<bool> learner_rules{false};
}  // namespace

void refuse_copies_to_host() {
  learner_rules.store(true, std::memory_order_relaxed);
}

bool copies_to_host_refused() {
  return learner_rules.load(std::memory_order_relaxed);
}
}  // namespace sim

using sim::memory::at;
using sim::memory::device_heap;

cudaError_t cudaMalloc(void** devPtr, size_t size, std::source_location where) {
  if (!devPtr) return sim::record_error(cudaErrorInvalidValue);
  *devPtr = nullptr;
  if (size == 0) return cudaSuccess;
  const sim::memory::RuntimeWork open;  // closed again around the new buffer too
  const sim::memory::Allocation* allocation = device_heap.allocate(size, where.file_name(), where.line());
  if (!allocation) {
    sim::memory::note_failed_allocation(size, where.file_name(), static_cast<int>(where.line()));
    sim::report(sim::Severity::warning, "malloc_failed", at(where),
                "cudaMalloc of " + sim::memory::size_words(size) + " failed: out of memory (the device has " +
                    sim::memory::size_words(sim::memory::kDeviceMemoryBytes) + ", " +
                    std::to_string(device_heap.live_bytes()) +
                    " bytes of it in use); the pointer stays null and cudaMalloc returns "
                    "cudaErrorMemoryAllocation");
    return sim::record_error(cudaErrorMemoryAllocation);
  }
  *devPtr = reinterpret_cast<void*>(allocation->data.lo);
  return cudaSuccess;
}

cudaError_t cudaFree(void* devPtr, std::source_location where) {
  if (!devPtr) return cudaSuccess;
  const auto address = reinterpret_cast<uintptr_t>(devPtr);
  sim::memory::Allocation* allocation = device_heap.find(address);
  if (!allocation || allocation->data.lo != address)
    return sim::memory::invalid(
        "invalid_free", at(where),
        "cudaFree(" + sim::memory::hex(devPtr) + "): not a pointer returned by cudaMalloc");
  if (allocation->freed.load(std::memory_order_relaxed))
    return sim::memory::invalid(
        "invalid_free", at(where),
        "cudaFree: " + sim::memory::name_of(*allocation).in_sentence + " was already freed at " +
            sim::memory::file_and_line(allocation->freed_file, allocation->freed_line));
  const sim::memory::RuntimeWork open;
  device_heap.release(*allocation, where.file_name(), where.line());
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                       std::source_location where) {
  return sim::memory::copy(dst, src, count, kind, "cudaMemcpy", at(where));
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t,
                            std::source_location where) {
  return sim::memory::copy(dst, src, count, kind, "cudaMemcpyAsync", at(where));
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count, std::source_location where) {
  return sim::memory::set(devPtr, value, count, "cudaMemset", at(where));
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t, std::source_location where) {
  return sim::memory::set(devPtr, value, count, "cudaMemsetAsync", at(where));
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  if (!ptr) return sim::record_error(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return cudaSuccess;
  constexpr size_t kPage = 4096;
  *ptr = std::aligned_alloc(kPage, (size + kPage - 1) / kPage * kPage);
  if (!*ptr) return sim::record_error(cudaErrorMemoryAllocation);
  auto& host = sim::memory::pinned();
  std::lock_guard lock(host.mutex);
  host.blocks.insert(*ptr);
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
  if (!ptr) return cudaSuccess;
  auto& host = sim::memory::pinned();
  std::lock_guard lock(host.mutex);
  if (host.blocks.erase(ptr) == 0) return sim::record_error(cudaErrorInvalidValue);
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  if (!free || !total) return sim::record_error(cudaErrorInvalidValue);
  *total = sim::memory::kDeviceMemoryBytes;
  *free = *total - device_heap.live_bytes();
  return cudaSuccess;
}
