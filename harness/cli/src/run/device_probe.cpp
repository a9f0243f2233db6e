#include "device_probe.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "errors.hpp"
#include "file_io.hpp"
#include "subprocess.hpp"

namespace puzzle::cli {
namespace {

using nlohmann::json;

constexpr auto kProbeTimeout = std::chrono::seconds(120);

std::optional<std::string> compute_capability(const json& probe) {
  const auto it = probe.find("compute_capability");
  if (it == probe.end()) return std::nullopt;
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number()) return it->dump();
  return std::nullopt;
}

// The figure first measured on this device by this build of the probe: a rebuilt probe may time the copy
// differently, so it measures afresh.
std::optional<double> cached_copy_gbps(const BuildConfig& config, const DeviceInfo& device) {
  const auto file = config.build_dir / "cache" / "device.json";
  const json cache = json::parse(read_text(file).value_or("{}"), nullptr, false);
  const std::string probe = modification_stamp(config.probe);
  const bool known = cache.is_object() && cache.contains(device.name) && cache[device.name].is_object() &&
                     cache[device.name].value("probe", "") == probe;
  if (!known) {
    if (!device.copy_gbps) return std::nullopt;
    json updated = cache.is_object() ? cache : json::object();
    updated[device.name] = {{"copy_gbps", *device.copy_gbps}, {"probe", probe}};
    write_atomically(file, updated.dump(2) + "\n");
    return device.copy_gbps;
  }
  return cache[device.name].value("copy_gbps", device.copy_gbps.value_or(0.0));
}

}  // namespace

DeviceInfo simulator_device() {
  return {.name = "CPU simulator"};
}

GpuProbe probe_gpu(const BuildConfig& config) {
  GpuProbe probe;
  if (!config.have_cuda || config.probe.empty()) {
    probe.why_not = "built without CUDA: no nvcc, or no GPU visible when ./puzzle built it";
    return probe;
  }
  if (!std::filesystem::exists(config.probe)) {  // ./puzzle builds the GPU parts only where it sees a GPU
    probe.why_not = "no GPU was visible when the GPU parts were built (target puzzle_gpu_parts)";
    return probe;
  }
  CapturedRun run;
  try {
    run = run_captured({config.probe.string()}, kProbeTimeout);
  } catch (const std::exception& e) {
    probe.why_not = e.what();
    return probe;
  }
  // The probe prints one JSON object (possibly after driver noise): take the last line that parses.
  json answer;
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);) {
    if (auto parsed = json::parse(line, nullptr, false); parsed.is_object()) answer = parsed;
  }
  if (!run.status.ok() || !answer.is_object() || !answer.contains("name")) {
    probe.why_not = answer.is_object() && answer.contains("error") ? answer["error"].get<std::string>()
                    : run.timed_out                                ? "the GPU probe did not answer"
                                    : "the GPU probe failed (" + run.status.describe() + ")";
    return probe;
  }
  probe.found = true;
  probe.device.name = answer["name"].get<std::string>();
  probe.device.compute_capability = compute_capability(answer);
  if (answer.contains("copy_gbps") && answer["copy_gbps"].is_number())
    probe.device.copy_gbps = answer["copy_gbps"].get<double>();
  probe.device.copy_gbps = cached_copy_gbps(config, probe.device);
  return probe;
}

BackendChoice choose_backend(BackendRequest request, const BuildConfig& config) {
  if (request == BackendRequest::sim) return {Backend::sim, "--backend sim", simulator_device()};
  GpuProbe probe = probe_gpu(config);
  if (probe.found) {
    return {Backend::gpu, request == BackendRequest::gpu ? "--backend gpu" : "GPU found", probe.device};
  }
  if (request == BackendRequest::gpu) {
    throw EnvironmentError("--backend gpu: no GPU to run on (" + probe.why_not +
                           "); run without --backend to use the CPU simulator");
  }
  // Without an NVIDIA driver CUDA says "driver version is insufficient": to a learner with no GPU that
  // reads like a problem to fix, so the usual no-GPU answers are not quoted.
  const bool plainly_no_gpu = probe.why_not.find("cudaErrorInsufficientDriver") != std::string::npos ||
                              probe.why_not.find("cudaErrorNoDevice") != std::string::npos;
  return {Backend::sim, plainly_no_gpu ? "no GPU found" : "no GPU found: " + probe.why_not,
          simulator_device()};
}

}  // namespace puzzle::cli
