#include "execution/host_thread_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace sim {

struct HostThreadPool::State {
  std::mutex launch;  // one launch at a time
  std::mutex mutex;
  std::condition_variable wake, done;
  uint64_t generation = 0;
  unsigned helpers = 0;  // workers 0..helpers-1 take part in the current generation
  unsigned busy = 0;
  void (*work)(void*) = nullptr;
  void* context = nullptr;
  std::vector<std::thread> workers;
};

namespace {

unsigned configured_size() {
  if (const char* env = std::getenv("PUZZLE_SIM_THREADS")) {
    const long n = std::strtol(env, nullptr, 10);
    if (n >= 1 && n <= 256) return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

HostThreadPool& HostThreadPool::instance() {
  // Never destroyed: its workers sleep until the process exits.
  static HostThreadPool* pool = new HostThreadPool(configured_size());
  return *pool;
}

HostThreadPool::HostThreadPool(unsigned size) : state_(new State), size_(size) {}

void HostThreadPool::serve(unsigned index) {
  uint64_t seen = 0;
  std::unique_lock lock(state_->mutex);
  for (;;) {
    state_->wake.wait(lock, [&] { return state_->generation != seen; });
    seen = state_->generation;
    if (index >= state_->helpers) continue;
    void (*work)(void*) = state_->work;
    void* context = state_->context;
    lock.unlock();
    work(context);
    lock.lock();
    if (--state_->busy == 0) state_->done.notify_all();
  }
}

void HostThreadPool::run(unsigned participants, void (*work)(void*), void* context) {
  std::lock_guard launch(state_->launch);
  const unsigned helpers = std::min(std::max(participants, 1u), size_) - 1;
  if (helpers > 0) {
    std::lock_guard lock(state_->mutex);
    while (state_->workers.size() < helpers) {
      const auto index = static_cast<unsigned>(state_->workers.size());
      state_->workers.emplace_back([this, index] { serve(index); });
    }
    state_->helpers = helpers;
    state_->busy = helpers;
    state_->work = work;
    state_->context = context;
    ++state_->generation;
    state_->wake.notify_all();
  }
  work(context);
  if (helpers > 0) {
    std::unique_lock lock(state_->mutex);
    state_->done.wait(lock, [&] { return state_->busy == 0; });
  }
}

}  // namespace sim
