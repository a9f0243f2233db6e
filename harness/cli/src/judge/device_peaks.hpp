// What no kernel can beat on the GPUs the harness knows: the project's one table of device peaks, and the
// fastest time a case could take by them. A timing under that is not a speed (docs/grading.md, "Speed").
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "model/check_report.hpp"

namespace puzzle::cli {

struct DevicePeaks {
  const char* name;      // a part of the name the CUDA runtime gives ("H100 PCIe")
  double dram_gbps;      // memory bandwidth, read + write (the data sheet's)
  double l2_bytes;       // the L2 cache
  double l2_gbps;        // an upper bound of the L2's bandwidth, for data that fits in it
  double tensor_tflops;  // dense bf16 on the tensor cores: no type's products run faster
};

// The row of the device named `device_name`, or nullopt for a device the table does not have.
std::optional<DevicePeaks> device_peaks(std::string_view device_name);

// The least time a case of `puzzle` with `params` can take on `device`, in ms: its minimum bytes at the
// bandwidth of where they can live (L2 when they fit in it), or its FLOPs at the tensor cores' peak,
// whichever is longer. nullopt on a device not in the table.
std::optional<double> fastest_possible_ms(const PuzzleSpec& puzzle, const Params& params,
                                          const DeviceInfo& device);

}  // namespace puzzle::cli
