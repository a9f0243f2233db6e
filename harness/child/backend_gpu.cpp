// The GPU child. The learner's shared object is linked with `-Xlinker --wrap=NAME` for every NAME the CLI
// wraps (build_commands.cpp), so that each such call of the learner's code lands in __wrap_NAME below,
// exported by this executable, which (a) counts the bytes the launcher holds at its peak (cudaMalloc,
// cudaFree), (b) counts kernel launches and notes the streams they went to, and (c) refuses the copies that
// would let host code compute the outputs: any copy from device memory to the host, and host data into an
// output (directly or through a scratch buffer), naming the learner's line (call_site.hpp). The runner's own
// memory and copies go straight to __real_*. docs/grading.md says what this covers.
#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "backend.hpp"
#include "call_site.hpp"
#include "device_fill.hpp"

extern "C" {
cudaError_t __real_cudaMalloc(void** ptr, size_t bytes);
cudaError_t __real_cudaFree(void* ptr);
cudaError_t __real_cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t __real_cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                   cudaStream_t stream);
cudaError_t __real_cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind kind);
cudaError_t __real_cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t __real_cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                        cudaMemcpyKind kind);
cudaError_t __real_cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                             cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t __real_cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t count);
cudaError_t __real_cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                       size_t count, cudaStream_t stream);
cudaError_t __real_cudaMemcpy3D(const cudaMemcpy3DParms* p);
cudaError_t __real_cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream);
cudaError_t __real_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                    cudaStream_t stream);
cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args);
cudaError_t __real_cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                               size_t shared, cudaStream_t stream);
cudaError_t __real_cudaGraphLaunch(cudaGraphExec_t graph, cudaStream_t stream);
cudaError_t __real_cudaStreamDestroy(cudaStream_t stream);
#if CUDART_VERSION >= 13000  // `kernel<<<...>>>` calls these since CUDA 13, cudaLaunchKernel before
cudaError_t __real___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                      cudaStream_t stream);
cudaError_t __real___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                           size_t shared, cudaStream_t stream);
#endif
}

namespace puzzle::child {
namespace {

enum class Role { scratch, output };

struct Region {
  uintptr_t hi;
  Role role;
  std::string name;
  bool holds_host_data = false;  // a copy from the host landed in it
};

bool device_pointer(const void* p) {
  cudaPointerAttributes attributes{};
  // Managed memory is the host's too: a copy into it reaches the host, one out of it may carry host data.
  const bool device =
      p && cudaPointerGetAttributes(&attributes, p) == cudaSuccess && attributes.type == cudaMemoryTypeDevice;
  cudaGetLastError();  // an unregistered host pointer may leave an error behind on older drivers
  return device;
}

// Where a copy's bytes come from: memory the host can write, device memory, or a __device__ symbol (device
// memory that may hold what the host put there with cudaMemcpyToSymbol).
enum class Source { host, device, symbol };

// What the learner's calls did during one launcher call, and the device buffers they may touch.
class DeviceWork {
 public:
  void start(const std::vector<GuardedBuffer>& outputs) {
    std::lock_guard lock(mutex_);
    active_ = true;
    // What earlier calls allocated and kept (a workspace reused from call to call) is this call's memory
    // too: the count starts from it, as the simulator's does (sim/src/memory/heap.cpp), and its peak is
    // taken where memory is in use (an allocation, a kernel launch, the return), so that a buffer freed
    // before a smaller one is allocated does not count. The budget's count (allocated_) starts from zero:
    // a workspace an earlier, larger case sized is not this case's.
    ++call_;
    live_ = peak_ = 0;
    for (const auto& [ptr, held] : held_) live_ += held.bytes;
    allocated_live_ = allocated_peak_ = 0;
    launches_ = 0;
    streams_.clear();
    // refused_ is not cleared: a copy refused between two calls (a thread the launcher left behind)
    // fails the next case rather than none.
    std::erase_if(regions_, [](const auto& r) { return r.second.role != Role::scratch; });
    for (const GuardedBuffer& b : outputs) add(b.base(), b.total_bytes(), Role::output, b.name());
  }
  void stop(protocol::CaseRecord& record) {
    std::lock_guard lock(mutex_);
    active_ = false;
    record.scratch_bytes = std::max(peak_, live_);
    record.scratch_allocated_bytes = allocated_peak_;
    record.kernel_launches = launches_;
    for (std::string& why : std::exchange(refused_, {})) record.refused.push_back(std::move(why));
  }
  void stream_destroyed(cudaStream_t stream) {  // its handle may not be queried any more
    std::lock_guard lock(mutex_);
    streams_.erase(stream);
  }
  std::set<cudaStream_t> take_streams() {
    std::lock_guard lock(mutex_);
    return std::exchange(streams_, {});
  }
  void refuse(std::string why) {
    std::lock_guard lock(mutex_);
    refused_.push_back(std::move(why));
  }

  void allocated(void* ptr, size_t bytes) {
    std::lock_guard lock(mutex_);
    add(ptr, bytes, Role::scratch, "a cudaMalloc buffer of yours");
    if (!active_) return;
    held_[ptr] = {bytes, call_};
    live_ += bytes;
    peak_ = std::max(peak_, live_);
    allocated_live_ += bytes;
    allocated_peak_ = std::max(allocated_peak_, allocated_live_);
  }
  void freed(void* ptr) {
    std::lock_guard lock(mutex_);
    regions_.erase(reinterpret_cast<uintptr_t>(ptr));
    const auto it = held_.find(ptr);
    if (it == held_.end()) return;  // allocated outside any call: not a launcher's scratch
    // Between calls the counts are not kept: start() sums held_ again.
    if (active_) {
      live_ -= it->second.bytes;
      if (it->second.call == call_) allocated_live_ -= it->second.bytes;
    }
    held_.erase(it);
  }

  void launched(cudaStream_t stream) {
    std::lock_guard lock(mutex_);
    ++launches_;
    peak_ = std::max(peak_, live_);
    if (stream != nullptr && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
      streams_.insert(stream);
  }

  // False (and the refusal noted, with the line of `site`) for a copy from `src` to `dst` that the rules
  // forbid. Which side is the device's is read from the pointers, not from the copy's kind: a kind can
  // lie, and cudaMemcpyDefault says nothing.
  bool copy_allowed(void* dst, const void* src, Source source, const char* call, const void* site) {
    const bool to_device = device_pointer(dst);
    if (source == Source::host && device_pointer(src)) source = Source::device;
    std::lock_guard lock(mutex_);
    if (!to_device && source != Source::host) {
      refused_.push_back(describe_call_site(site) + call +
                         " copies device memory to the host: no data leaves the device in a launcher; "
                         "the outputs must be computed by your kernels");
      return false;
    }
    Region* to = find(dst);
    const Region* from = source == Source::device ? find(src) : nullptr;
    const bool host_data = source != Source::device || (from && from->holds_host_data);
    if (to && to->role == Role::output && host_data) {
      refused_.push_back(describe_call_site(site) + call + " put data from the host into output " + to->name +
                         ": outputs must be computed by your kernels, not copied from the host");
      return false;
    }
    if (to && to->role == Role::scratch) to->holds_host_data |= host_data;
    return true;
  }

 private:
  void add(void* ptr, size_t bytes, Role role, std::string name) {
    regions_[reinterpret_cast<uintptr_t>(ptr)] = {reinterpret_cast<uintptr_t>(ptr) + bytes, role,
                                                  std::move(name)};
  }
  Region* find(const void* p) {
    const auto address = reinterpret_cast<uintptr_t>(p);
    auto it = regions_.upper_bound(address);
    if (it == regions_.begin()) return nullptr;
    --it;
    return address < it->second.hi ? &it->second : nullptr;
  }

  std::mutex mutex_;
  bool active_ = false;
  uint64_t live_ = 0, peak_ = 0;                      // what the launcher holds, earlier calls' buffers too
  uint64_t allocated_live_ = 0, allocated_peak_ = 0;  // what this call allocated itself
  uint64_t call_ = 0;                                 // calls started
  int64_t launches_ = 0;
  std::vector<std::string> refused_;
  std::set<cudaStream_t> streams_;
  struct Held {
    size_t bytes;
    uint64_t call;  // the call that allocated it
  };
  std::map<void*, Held> held_;           // launchers' allocations not freed yet, whichever call made them
  std::map<uintptr_t, Region> regions_;  // by start address
};

DeviceWork& device_work() {
  static DeviceWork tracker;
  return tracker;
}

// The source of a copy of `kind`: the host's unless the kind or the pointer says device memory.
Source source_of(cudaMemcpyKind kind) {
  return kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ? Source::device : Source::host;
}

}  // namespace

const char* const kBackend = "gpu";

cudaError_t runner_malloc(void** ptr, size_t bytes) {
  return __real_cudaMalloc(ptr, bytes);
}

cudaError_t runner_free(void* ptr) {
  return __real_cudaFree(ptr);
}

cudaError_t runner_memcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return __real_cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t runner_fill(void* dst, uint32_t bits, size_t elements, size_t element_bytes) {
  return launch_fill(dst, bits, elements, element_bytes);
}

cudaError_t runner_count_differences(const void* a, const void* b, size_t elements, size_t element_bytes,
                                     int64_t& differences) {
  unsigned long long* counter = nullptr;
  cudaError_t error = runner_malloc(reinterpret_cast<void**>(&counter), sizeof *counter);
  if (error != cudaSuccess) return error;
  unsigned long long count = 0;
  error = cudaMemset(counter, 0, sizeof *counter);
  if (error == cudaSuccess) error = launch_count_differences(a, b, elements, element_bytes, counter);
  if (error == cudaSuccess) error = runner_memcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost);
  runner_free(counter);
  differences = static_cast<int64_t>(count);
  return error;
}

void learner_code_loaded(const void*) {}  // a refusal finds its line itself (call_site.hpp)

void begin_launcher(const std::vector<GuardedBuffer>&, const std::vector<GuardedBuffer>& outputs) {
  device_work().start(outputs);
}

void set_estimating(bool on) {
  if (on) throw std::runtime_error("the speed estimate is the simulator's: a GPU times the kernels instead");
}

void launcher_returned(protocol::CaseRecord&) {
  // Before anything waits for the device: a stream of the learner's still busy now would still be
  // writing when a harness that syncs only the default stream (as the timing does) reads the outputs.
  for (cudaStream_t stream : device_work().take_streams()) {
    if (cudaStreamQuery(stream) == cudaErrorNotReady) {
      device_work().refuse(
          "the launcher returned while a kernel it launched on a stream of its own was still running "
          "(nothing "
          "waited for it: cudaStreamSynchronize, or cudaEventRecord then cudaStreamWaitEvent on the default "
          "stream); the harness reads the outputs when the launcher returns");
    }
  }
}

void end_launcher(protocol::CaseRecord& record) {
  device_work().stop(record);
}

}  // namespace puzzle::child

using puzzle::child::device_work;
using puzzle::child::Source;
using puzzle::child::source_of;

extern "C" {

cudaError_t __wrap_cudaMalloc(void** ptr, size_t bytes) {
  const cudaError_t error = __real_cudaMalloc(ptr, bytes);
  if (error == cudaSuccess) device_work().allocated(*ptr, bytes);
  return error;
}

cudaError_t __wrap_cudaFree(void* ptr) {
  device_work().freed(ptr);
  return __real_cudaFree(ptr);
}

// Each copy is judged by its ends' pointers; the line named is the learner's call (the return address).
#define PUZZLE_COPY_ALLOWED(dst, src, source, call) \
  device_work().copy_allowed(dst, src, source, call, __builtin_return_address(0))

cudaError_t __wrap_cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (!PUZZLE_COPY_ALLOWED(dst, src, source_of(kind), "cudaMemcpy")) return cudaErrorInvalidValue;
  return __real_cudaMemcpy(dst, src, count, kind);
}

cudaError_t __wrap_cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                   cudaStream_t stream) {
  if (!PUZZLE_COPY_ALLOWED(dst, src, source_of(kind), "cudaMemcpyAsync")) return cudaErrorInvalidValue;
  return __real_cudaMemcpyAsync(dst, src, count, kind, stream);
}

cudaError_t __wrap_cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind kind) {
  if (!PUZZLE_COPY_ALLOWED(dst, src, source_of(kind), "cudaMemcpy2D")) return cudaErrorInvalidValue;
  return __real_cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t __wrap_cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!PUZZLE_COPY_ALLOWED(dst, src, source_of(kind), "cudaMemcpy2DAsync")) return cudaErrorInvalidValue;
  return __real_cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}

cudaError_t __wrap_cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                        cudaMemcpyKind kind) {
  if (!PUZZLE_COPY_ALLOWED(dst, symbol, Source::symbol, "cudaMemcpyFromSymbol")) return cudaErrorInvalidValue;
  return __real_cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t __wrap_cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                             cudaMemcpyKind kind, cudaStream_t stream) {
  if (!PUZZLE_COPY_ALLOWED(dst, symbol, Source::symbol, "cudaMemcpyFromSymbolAsync"))
    return cudaErrorInvalidValue;
  return __real_cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, stream);
}

cudaError_t __wrap_cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t count) {
  if (!PUZZLE_COPY_ALLOWED(dst, src, Source::device, "cudaMemcpyPeer")) return cudaErrorInvalidValue;
  return __real_cudaMemcpyPeer(dst, dst_device, src, src_device, count);
}

cudaError_t __wrap_cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                                       size_t count, cudaStream_t stream) {
  if (!PUZZLE_COPY_ALLOWED(dst, src, Source::device, "cudaMemcpyPeerAsync")) return cudaErrorInvalidValue;
  return __real_cudaMemcpyPeerAsync(dst, dst_device, src, src_device, count, stream);
}

// 3D copies name their ends in a struct: a pointer, or a CUDA array, which is device memory (the check of
// the file refuses the calls that make one; an array destination keeps its bytes on the device).
cudaError_t __wrap_cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (p && !p->dstArray &&
      !PUZZLE_COPY_ALLOWED(p->dstPtr.ptr, p->srcPtr.ptr, p->srcArray ? Source::device : source_of(p->kind),
                           "cudaMemcpy3D"))
    return cudaErrorInvalidValue;
  return __real_cudaMemcpy3D(p);
}

cudaError_t __wrap_cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  if (p && !p->dstArray &&
      !PUZZLE_COPY_ALLOWED(p->dstPtr.ptr, p->srcPtr.ptr, p->srcArray ? Source::device : source_of(p->kind),
                           "cudaMemcpy3DAsync"))
    return cudaErrorInvalidValue;
  return __real_cudaMemcpy3DAsync(p, stream);
}

cudaError_t __wrap_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                    cudaStream_t stream) {
  device_work().launched(stream);
  return __real_cudaLaunchKernel(func, grid, block, args, shared, stream);
}

cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  device_work().launched(config ? config->stream : nullptr);
  return __real_cudaLaunchKernelExC(config, func, args);
}

cudaError_t __wrap_cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                               size_t shared, cudaStream_t stream) {
  device_work().launched(stream);
  return __real_cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
}

cudaError_t __wrap_cudaStreamDestroy(cudaStream_t stream) {
  device_work().stream_destroyed(stream);
  return __real_cudaStreamDestroy(stream);
}

cudaError_t __wrap_cudaGraphLaunch(cudaGraphExec_t graph, cudaStream_t stream) {
  device_work().launched(stream);
  return __real_cudaGraphLaunch(graph, stream);
}

#if CUDART_VERSION >= 13000
cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                      cudaStream_t stream) {
  device_work().launched(stream);
  return __real___cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t __wrap___cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                           size_t shared, cudaStream_t stream) {
  device_work().launched(stream);
  return __real___cudaLaunchKernel_ptsz(kernel, grid, block, args, shared, stream);
}
#endif

}  // extern "C"
