// Is there a GPU, which one, and how fast does it copy? (puzzle-device-probe, with a per-device cache)
#pragma once
#include <memory>
#include <string>

#include "model/build_config.hpp"
#include "model/check_report.hpp"
#include "model/options.hpp"

namespace puzzle::cli {

class HeldProcess;  // subprocess.hpp

struct GpuProbe {
  bool found = false;
  std::string why_not;  // when !found: "this build has no CUDA parts: ...", the probe's error, ...
  DeviceInfo device;
  std::shared_ptr<HeldProcess> held_device;  // the probe, holding the device open while this lives
};

// The copy bandwidth is the figure from the first probe of this device by this build of the probe
// (build/cache/device.json), so that "% of copy" does not drift with each run's measurement noise.
GpuProbe probe_gpu(const BuildConfig& config);

struct BackendChoice {
  Backend backend = Backend::sim;
  std::string reason;  // "no GPU found", "a GPU is visible, but ...", "--backend sim", ...
  DeviceInfo device;
  std::shared_ptr<HeldProcess> held_device;  // the GPU's: keep the choice while its children run
};

// Whether a check is likely to run on the GPU before the probe says so: the GPU parts were built, which
// ./puzzle does only where it saw a GPU, and the simulator was not asked for.
bool gpu_expected(BackendRequest request, const BuildConfig& config);

// auto: the GPU when CUDA was configured and a GPU answers, else the simulator. EnvironmentError for
// --backend gpu without a GPU.
BackendChoice choose_backend(BackendRequest request, const BuildConfig& config);

DeviceInfo simulator_device();

// Whether the machine has an NVIDIA device node (/dev/nvidia0, ...), as ./puzzle decides where a GPU is.
bool gpu_device_visible(const std::filesystem::path& dev = "/dev");

}  // namespace puzzle::cli
