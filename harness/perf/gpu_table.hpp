// The GPUs the speed estimate knows: what the model needs of each, with where each figure comes from.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace puzzle::perf {

struct GpuSpec {
  std::string key;                // "h100", "h200": what `--gpu` and the calibration tables call it
  std::string name;               // "H100": what the estimate says
  std::string device_name;        // a substring of the CUDA device name that means this GPU
  int sms = 0;                    // streaming multiprocessors
  double clock_hz = 0;            // the SMs' boost clock
  double dram_bytes_per_s = 0;    // a device-to-device copy as `puzzle` measures it (read + write)
  double l2_bytes = 0;            // L2 cache
  double l2_bytes_per_s = 0;      // L2 to the SMs: a model constant (see gpu_table.cpp)
  double l1_shared_bytes = 0;     // per SM: L1 and shared memory together
  double shared_bytes_max = 0;    // per SM, of which shared memory at most
  double shared_reserved = 0;     // per block, taken by the driver
  int max_warps = 0;              // per SM
  int max_blocks = 0;             // per SM
  int registers = 0;              // per SM (32-bit)
  double fp32_lanes = 0;          // per SM: FMAs per clock
  double special_lanes = 0;       // per SM: special-function results (exp2, rcp ...) per clock
  double tensor_flops_clock = 0;  // per SM and clock, 16-bit inputs, dense (wgmma's peak)
};

const std::vector<GpuSpec>& gpu_table();
// The GPU a key ("h200") or a CUDA device name ("NVIDIA H200") names; nullptr if none.
const GpuSpec* find_gpu(std::string_view key_or_device);
const GpuSpec& default_gpu();  // the H100: what the simulator's device properties describe

}  // namespace puzzle::perf
