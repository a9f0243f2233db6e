#include "memory/host_reach.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>

#include "memory/device_variables.hpp"
#include "memory/heap.hpp"

namespace sim::memory {
namespace {

std::mutex mutex;
bool closed = false;
int open_works = 0;  // RuntimeWork in progress while closed

// The whole pages inside [lo, hi): a variable's partial pages hold the host's objects too.
void protect(uintptr_t lo, uintptr_t hi, int protection) {
  static const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t first = (lo + page - 1) / page * page, last = hi / page * page;
  if (last > first) mprotect(reinterpret_cast<void*>(first), last - first, protection);
}

void set_protection(int protection) {
  const AddressRange arena = device_heap.used();
  protect(arena.lo, arena.hi, protection);
  for (const DeviceVariable& variable : device_variables()) {
    if (variable.writable) protect(variable.lo, variable.hi, protection);
  }
}

}  // namespace

void close_to_host_code() {
  std::lock_guard lock(mutex);
  if (!closed && open_works == 0) set_protection(PROT_NONE);
  closed = true;
}

void open_to_host_code() {
  std::lock_guard lock(mutex);
  if (closed && open_works == 0) set_protection(PROT_READ | PROT_WRITE);
  closed = false;
}

RuntimeWork::RuntimeWork() {
  std::lock_guard lock(mutex);
  if (!closed) return;
  opened_ = true;
  if (open_works++ == 0) set_protection(PROT_READ | PROT_WRITE);
}

RuntimeWork::~RuntimeWork() {
  if (!opened_) return;
  std::lock_guard lock(mutex);
  // Closed again with what the work allocated: a buffer cudaMalloc made is device memory too.
  if (--open_works == 0 && closed) set_protection(PROT_NONE);
}

}  // namespace sim::memory
