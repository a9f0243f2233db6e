#include "context.hpp"

#include <array>
#include <atomic>

#include "host_threads.hpp"

namespace sim {
namespace {

// initial-exec: the memory checker reads this on every instrumented access, so no __tls_get_addr.
constinit thread_local ThreadState* current [[gnu::tls_model("initial-exec")]] = nullptr;

constexpr size_t kMaxHostThreads = 256;
std::array<std::atomic<ThreadState* const*>, kMaxHostThreads> registry{};
std::atomic<size_t> registry_size{0};

// Clears this thread's entry when the thread exits, before its thread-locals are gone.
struct Registration {
  std::atomic<ThreadState* const*>* entry = nullptr;
  ~Registration() {
    if (entry) entry->store(nullptr);
  }
};
thread_local Registration registration;

}  // namespace

ThreadState* current_thread() noexcept {
  return current;
}
void set_current_thread(ThreadState* t) noexcept {
  current = t;
}

void register_host_thread() {
  if (registration.entry) return;
  const size_t i = registry_size.fetch_add(1);
  if (i >= kMaxHostThreads) return;  // not named by the timeout report; nothing else depends on it
  registry[i].store(&current);
  registration.entry = &registry[i];
}

size_t registered_host_threads() noexcept {
  const size_t n = registry_size.load();
  return n < kMaxHostThreads ? n : kMaxHostThreads;
}

const ThreadState* running_thread(size_t i) noexcept {
  ThreadState* const* slot = registry[i].load();
  return slot ? *static_cast<ThreadState* const volatile*>(slot) : nullptr;
}

}  // namespace sim
