#include "core/context.hpp"

constinit thread_local uint3 sim_running_thread_idx [[gnu::tls_model("initial-exec")]]{};

namespace sim {

namespace detail {
constinit thread_local ThreadState* current_state [[gnu::tls_model("initial-exec")]] = nullptr;
constinit thread_local WatchedRange current_watched [[gnu::tls_model("initial-exec")]];
}  // namespace detail

void stop_running_block() {
  ThreadState& self = *current_thread();
  self.block->control->abandon_block(self);
  __builtin_unreachable();  // an override need not be [[noreturn]]: the compiler cannot assume it
}

}  // namespace sim
