// The host threads that run simulated threads, so that the timeout handler can say what each one
// was executing. Read from a signal handler: plain loads, no locks.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/context.hpp"

namespace sim {

// Makes this host thread's current simulated thread visible to running_thread(); once per host
// thread, undone when it exits.
void register_host_thread();

size_t registered_host_threads() noexcept;
// The simulated thread host thread i is executing, or nullptr; async-signal-safe.
const ThreadState* running_thread(size_t i) noexcept;
// The return address of host thread i's last instrumented access in the learner's code (0: none yet);
// async-signal-safe.
uintptr_t last_access_pc(size_t i) noexcept;

}  // namespace sim
