#include "gpu_table.hpp"

#include <algorithm>
#include <cctype>

namespace puzzle::perf {
namespace {

// NVIDIA's H100 whitepaper ("NVIDIA H100 Tensor Core GPU Architecture") for the SXM5 part: 132 SMs at
// a 1980 MHz boost clock, 50 MB of L2, 256 KB of L1 and shared memory per SM (up to 228 KB shared, 1 KB
// of it reserved per block), 64 warps, 32 blocks and 65536 registers per SM, 128 FP32 lanes and 16
// special-function units per SM, and dense BF16 tensor throughput of 989 TFLOP/s at 1830 MHz: 4096 flops
// per SM and clock. The H200 is the same GH100 chip with faster HBM3e. The DRAM figures are this
// project's own: the copy bandwidth `puzzle` measures (docs/measurements/01_row_softmax.md: H100 3012
// GB/s; H200 4239-4267 GB/s, 4250 taken). L2 bandwidth is not published: 2.2x the DRAM copy on the H100,
// a constant of the model that the calibration table holds it to (docs/simulator.md).
GpuSpec gh100(std::string key, std::string name, std::string device_name, double dram) {
  return {.key = std::move(key),
          .name = std::move(name),
          .device_name = std::move(device_name),
          .sms = 132,
          .clock_hz = 1.98e9,
          .dram_bytes_per_s = dram,
          .l2_bytes = 50e6,
          .l2_bytes_per_s = 6.6e12,
          .l1_shared_bytes = 256 * 1024,
          .shared_bytes_max = 228 * 1024,
          .shared_reserved = 1024,
          .max_warps = 64,
          .max_blocks = 32,
          .registers = 65536,
          .fp32_lanes = 128,
          .special_lanes = 16,
          .tensor_flops_clock = 4096};
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace

const std::vector<GpuSpec>& gpu_table() {
  static const std::vector<GpuSpec> table = {gh100("h100", "H100", "H100", 3012e9),
                                             gh100("h200", "H200", "H200", 4250e9)};
  return table;
}

const GpuSpec* find_gpu(std::string_view key_or_device) {
  const std::string wanted = lower(key_or_device);
  for (const GpuSpec& gpu : gpu_table()) {
    if (wanted == gpu.key || wanted.find(lower(gpu.device_name)) != std::string::npos) return &gpu;
  }
  return nullptr;
}

const GpuSpec& default_gpu() {
  return gpu_table().front();
}

}  // namespace puzzle::perf
