#include "judge/device_peaks.hpp"

#include <algorithm>

namespace puzzle::cli {
namespace {

// Data-sheet peaks (dense, no sparsity); L2 sizes as cudaDevAttrL2CacheSize reports them. The L2 bound
// is 3x the memory bandwidth, above any L2 bandwidth measured on these parts. More specific names first.
// Checked against docs/measurements/: the fastest figures there (4267 GB/s on an H200, 3012 on an H100,
// 783.6 TFLOP/s of bf16 on an H100) are all below their rows.
constexpr DevicePeaks kPeaks[] = {
    {"H200", 4800, 60 << 20, 3 * 4800, 989},     {"H100 PCIe", 2000, 50 << 20, 3 * 2000, 756},
    {"H100 NVL", 3900, 50 << 20, 3 * 3900, 835}, {"H100", 3350, 50 << 20, 3 * 3350, 989},
    {"A100", 2039, 40 << 20, 3 * 2039, 312},     {"L40", 864, 48 << 20, 3 * 864, 362},
    {"L4", 300, 48 << 20, 3 * 300, 121},
};

}  // namespace

std::optional<DevicePeaks> device_peaks(std::string_view device_name) {
  for (const DevicePeaks& peaks : kPeaks) {
    if (device_name.find(peaks.name) != std::string_view::npos) return peaks;
  }
  return std::nullopt;
}

std::optional<double> fastest_possible_ms(const PuzzleSpec& puzzle, const Params& params,
                                          const DeviceInfo& device) {
  const std::optional<DevicePeaks> peaks = device_peaks(device.name);
  if (!peaks) return std::nullopt;
  double ms = 0;
  if (puzzle.min_bytes) {
    const double bytes = puzzle.min_bytes(params);
    ms = bytes / ((bytes <= peaks->l2_bytes ? peaks->l2_gbps : peaks->dram_gbps) * 1e9) * 1e3;
  }
  if (puzzle.flops) ms = std::max(ms, puzzle.flops(params) / (peaks->tensor_tflops * 1e12) * 1e3);
  return ms;
}

}  // namespace puzzle::cli
