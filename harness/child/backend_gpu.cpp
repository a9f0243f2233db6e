// The GPU child. The CLI links it with -Xlinker --wrap=cudaMalloc -Xlinker --wrap=cudaFree, so every
// cudaMalloc/cudaFree of the learner's code lands in __wrap_* below, which counts the bytes the
// launcher holds at its peak; the runner's own memory goes straight to __real_*.
#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "backend.hpp"

extern "C" {
cudaError_t __real_cudaMalloc(void** ptr, size_t bytes);
cudaError_t __real_cudaFree(void* ptr);
cudaError_t __wrap_cudaMalloc(void** ptr, size_t bytes);
cudaError_t __wrap_cudaFree(void* ptr);
}

namespace puzzle::child {
namespace {

class ScratchTracker {
 public:
  void start() {
    std::lock_guard lock(mutex_);
    active_ = true;
    live_ = peak_ = 0;
    sizes_.clear();
  }
  uint64_t stop() {
    std::lock_guard lock(mutex_);
    active_ = false;
    return peak_;
  }
  void allocated(void* ptr, size_t bytes) {
    std::lock_guard lock(mutex_);
    if (!active_) return;
    sizes_[ptr] = bytes;
    live_ += bytes;
    peak_ = std::max(peak_, live_);
  }
  void freed(void* ptr) {
    std::lock_guard lock(mutex_);
    const auto it = sizes_.find(ptr);
    if (it == sizes_.end()) return;  // allocated before start(): not this launcher's scratch
    live_ -= it->second;
    sizes_.erase(it);
  }

 private:
  std::mutex mutex_;
  bool active_ = false;
  uint64_t live_ = 0, peak_ = 0;
  std::unordered_map<void*, size_t> sizes_;
};

ScratchTracker& scratch() {
  static ScratchTracker tracker;
  return tracker;
}

}  // namespace

const char* const kBackend = "gpu";

cudaError_t runner_malloc(void** ptr, size_t bytes) {
  return __real_cudaMalloc(ptr, bytes);
}

cudaError_t runner_free(void* ptr) {
  return __real_cudaFree(ptr);
}

void begin_launcher(const std::vector<GuardedBuffer>&, const std::vector<GuardedBuffer>&) {
  scratch().start();
}

void end_launcher(protocol::CaseRecord& record) {
  record.scratch_bytes = scratch().stop();
}

}  // namespace puzzle::child

extern "C" cudaError_t __wrap_cudaMalloc(void** ptr, size_t bytes) {
  const cudaError_t error = __real_cudaMalloc(ptr, bytes);
  if (error == cudaSuccess) puzzle::child::scratch().allocated(*ptr, bytes);
  return error;
}

extern "C" cudaError_t __wrap_cudaFree(void* ptr) {
  puzzle::child::scratch().freed(ptr);
  return __real_cudaFree(ptr);
}
