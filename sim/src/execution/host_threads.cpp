#include "execution/host_threads.hpp"

#include <array>
#include <atomic>

#include "memory/access.hpp"

namespace sim {
namespace {

constexpr size_t kMaxHostThreads = 256;
std::array<std::atomic<ThreadState* const*>, kMaxHostThreads> registry{};
std::array<std::atomic<const uintptr_t*>, kMaxHostThreads> access_pcs{};  // same index as registry
std::atomic<size_t> registry_size{0};

// Clears this thread's entry when the thread exits, before its thread-locals are gone.
struct Registration {
  std::atomic<ThreadState* const*>* entry = nullptr;
  std::atomic<const uintptr_t*>* access_pc = nullptr;
  ~Registration() {
    if (entry) entry->store(nullptr);
    if (access_pc) access_pc->store(nullptr);
  }
};
thread_local Registration registration;

}  // namespace

void register_host_thread() {
  if (registration.entry) return;
  const size_t i = registry_size.fetch_add(1);
  if (i >= kMaxHostThreads) return;  // not named by the timeout report; nothing else depends on it
  registry[i].store(&detail::current_state);
  registration.entry = &registry[i];
  access_pcs[i].store(&memory::host_thread_access.last_access_pc);
  registration.access_pc = &access_pcs[i];
}

size_t registered_host_threads() noexcept {
  const size_t n = registry_size.load();
  return n < kMaxHostThreads ? n : kMaxHostThreads;
}

const ThreadState* running_thread(size_t i) noexcept {
  ThreadState* const* slot = registry[i].load();
  return slot ? *static_cast<ThreadState* const volatile*>(slot) : nullptr;
}

uintptr_t last_access_pc(size_t i) noexcept {
  const uintptr_t* pc = access_pcs[i].load();
  return pc ? *static_cast<const volatile uintptr_t*>(pc) : 0;
}

}  // namespace sim
