// Streams and events. Work is done by the time the call that queues it returns, so streams order
// nothing and an event's time is the host time at which it was recorded.
#include <chrono>
#include <mutex>
#include <set>

#include "cuda_runtime_api.h"
#include "errors.hpp"

struct CUstream_st {
  unsigned int flags;
};

struct CUevent_st {
  unsigned int flags;
  bool recorded = false;
  std::chrono::steady_clock::time_point when{};
};

namespace {

// The live handles of one kind, so that a stale or foreign handle is an error, not a crash.
template <class Handle>
class Registry {
 public:
  Handle* create(unsigned int flags) {
    std::lock_guard lock(mutex_);
    return *live_.insert(new Handle{flags}).first;
  }
  bool destroy(Handle* h) {
    std::lock_guard lock(mutex_);
    if (live_.erase(h) == 0) return false;
    delete h;
    return true;
  }
  bool contains(Handle* h) {
    std::lock_guard lock(mutex_);
    return live_.count(h) != 0;
  }

 private:
  std::mutex mutex_;
  std::set<Handle*> live_;
};

Registry<CUstream_st> streams;
Registry<CUevent_st> events;

// The default stream, cudaStreamLegacy and cudaStreamPerThread are always valid.
bool valid_stream(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || streams.contains(s);
}

}  // namespace

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (!stream || flags > cudaStreamNonBlocking) return sim::record_error(cudaErrorInvalidValue);
  *stream = streams.create(flags);
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return streams.destroy(stream) ? cudaSuccess : sim::record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return valid_stream(stream) ? cudaSuccess : sim::record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return cudaStreamSynchronize(stream);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!valid_stream(stream) || !events.contains(event))
    return sim::record_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  constexpr unsigned int known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (!event || (flags & ~known) != 0) return sim::record_error(cudaErrorInvalidValue);
  *event = events.create(flags);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return events.destroy(event) ? cudaSuccess : sim::record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!events.contains(event) || !valid_stream(stream))
    return sim::record_error(cudaErrorInvalidResourceHandle);
  event->recorded = true;
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return events.contains(event) ? cudaSuccess : sim::record_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  return cudaEventSynchronize(event);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return sim::record_error(cudaErrorInvalidValue);
  if (!events.contains(start) || !events.contains(end))
    return sim::record_error(cudaErrorInvalidResourceHandle);
  if ((start->flags | end->flags) & cudaEventDisableTiming || !start->recorded || !end->recorded) {
    return sim::record_error(cudaErrorInvalidResourceHandle);
  }
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}
