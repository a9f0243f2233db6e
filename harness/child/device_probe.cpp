// puzzle-device-probe: what the CLI needs to know about the GPU, as one JSON object on stdout,
// including the device-to-device copy bandwidth that bandwidth figures are compared with (left out with
// --without-copy: the CLI measures it once per device, and the copies take a third of a second).
// Exit 2 with {"error": ...} when there is no usable GPU.
// --hold: after answering, keep the CUDA context until stdin ends (the CLI holds the device open this way
// while the child runs; subprocess.hpp, HeldProcess).
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "busy_wait.hpp"
#include "cuda_error.hpp"

namespace {

using puzzle::child::check;

constexpr int kWarmup = 3;
constexpr int kReps = 20;

std::string version(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// cudaMemcpyAsync of up to 1 GiB device to device; bytes read + written per second, median of kReps.
double copy_gbps() {
  size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const size_t bytes = std::min(size_t{1} << 30, free_bytes / 4);
  void *src = nullptr, *dst = nullptr;
  check(cudaMalloc(&src, bytes), "cudaMalloc");
  check(cudaMalloc(&dst, bytes), "cudaMalloc");
  check(cudaMemset(src, 1, bytes), "cudaMemset");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < kWarmup; ++i) check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "copy");
  std::vector<float> ms(kReps);
  for (float& t : ms) {
    check(puzzle::child::enqueue_busy_wait(), "busy-wait");  // timed as kernels are (bench.cpp)
    check(cudaEventRecord(start), "cudaEventRecord");
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "copy");
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(src);
  cudaFree(dst);
  std::sort(ms.begin(), ms.end());
  const double median_ms = (ms[kReps / 2 - 1] + ms[kReps / 2]) / 2;
  return 2.0 * static_cast<double>(bytes) / (median_ms * 1e-3) * 1e-9;
}

nlohmann::json probe(bool with_copy) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0;
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  nlohmann::json answer = {
      {"name", prop.name},
      {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
      {"sm_count", prop.multiProcessorCount},
      {"l2_bytes", prop.l2CacheSize},
      {"global_memory_bytes", prop.totalGlobalMem},
      {"driver_version", version(driver)},
      {"runtime_version", version(runtime)}};
  if (with_copy) answer["copy_gbps"] = copy_gbps();
  return answer;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> flags(argv + 1, argv + argc);
    const auto has = [&](const char* flag) {
      return std::find(flags.begin(), flags.end(), flag) != flags.end();
    };
    std::printf("%s\n", probe(!has("--without-copy")).dump().c_str());
    if (has("--hold")) {
      std::fflush(stdout);
      char ignored[64];
      while (read(STDIN_FILENO, ignored, sizeof ignored) > 0) {
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::printf("%s\n", nlohmann::json{{"error", e.what()}}.dump().c_str());
    return 2;
  }
}
