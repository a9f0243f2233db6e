// Streams and events. Work is done by the time the call that queues it returns, so streams order
// nothing and an event's time is the host time at which it was recorded. What a GPU would still be
// running is tracked all the same: a launcher that returns before its own stream's work is done is a
// finding, since on a GPU the harness would read the outputs before that work wrote them.
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>

#include "cuda_runtime_api.h"
#include "diagnostics/report.hpp"
#include "runtime_api/errors.hpp"
#include "runtime_api/streams.hpp"

struct CUstream_st {
  unsigned int flags;
  std::atomic<bool> unfinished{false};  // a launch on it that nothing has waited for
};

struct CUevent_st {
  unsigned int flags;
  bool recorded = false;
  std::chrono::steady_clock::time_point when{};
  cudaStream_t covers = nullptr;  // the stream whose unfinished work a wait on this event finishes
};

namespace {

// The live handles of one kind, so that a stale or foreign handle is an error, not a crash.
template <class Handle>
class Registry {
 public:
  Handle* create(unsigned int flags) {
    std::lock_guard lock(mutex_);
    return *live_.insert(new Handle{.flags = flags}).first;
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
  template <class F>
  void for_each(F&& f) {
    std::lock_guard lock(mutex_);
    for (Handle* h : live_) f(*h);
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

bool learners_stream(cudaStream_t s) {
  return s != nullptr && s != cudaStreamLegacy && s != cudaStreamPerThread && streams.contains(s);
}

void finish(cudaStream_t s) {
  if (learners_stream(s)) s->unfinished = false;
}

}  // namespace

namespace sim {

void note_stream_launch(cudaStream_t stream) {
  if (learners_stream(stream)) stream->unfinished = true;
}

void finish_all_streams() {
  streams.for_each([](CUstream_st& s) { s.unfinished = false; });
}

void report_unfinished_streams() {
  streams.for_each([](CUstream_st& s) {
    if (!s.unfinished.exchange(false)) return;
    report(Severity::error, "unfinished_stream_work", Where{},
           "the launcher returned while a kernel it launched on a stream of its own was unfinished (nothing "
           "waited for it: cudaStreamSynchronize, or cudaEventRecord then cudaStreamWaitEvent on the default "
           "stream); on a GPU the harness would read the outputs before that kernel wrote them");
  });
}

}  // namespace sim

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
  if (!valid_stream(stream)) return sim::record_error(cudaErrorInvalidResourceHandle);
  finish(stream);
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return cudaStreamSynchronize(stream);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!valid_stream(stream) || !events.contains(event))
    return sim::record_error(cudaErrorInvalidResourceHandle);
  // Whatever waits next on `stream` waits for the work the event covers; the runner's wait does.
  finish(event->covers);
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
  event->covers = learners_stream(stream) && stream->unfinished ? stream : nullptr;
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!events.contains(event)) return sim::record_error(cudaErrorInvalidResourceHandle);
  finish(event->covers);
  return cudaSuccess;
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
