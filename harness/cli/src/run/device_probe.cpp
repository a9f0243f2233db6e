#include "run/device_probe.hpp"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <vector>

#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"

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

// The copy figures already measured, build/cache/device.json: {device name: {"copy_gbps", "probe"}}, each
// the first measured on that device by the build of the probe that "probe" stamps. A rebuilt probe may time
// the copy differently, so it measures afresh.
class CopyCache {
 public:
  explicit CopyCache(const BuildConfig& config)
      : file_(config.build_dir / "cache" / "device.json"),
        cache_(json::parse(read_text(file_).value_or("{}"), nullptr, false)),
        probe_(modification_stamp(config.probe)) {
    if (!cache_.is_object()) cache_ = json::object();
  }

  bool knows_any() const {
    for (const auto& [_, entry] : cache_.items()) {
      if (entry.is_object() && entry.value("probe", "") == probe_) return true;
    }
    return false;
  }

  std::optional<double> find(const std::string& device) const {
    const auto it = cache_.find(device);
    if (it == cache_.end() || !it->is_object() || it->value("probe", "") != probe_ ||
        !it->contains("copy_gbps") || !(*it)["copy_gbps"].is_number())
      return std::nullopt;
    return (*it)["copy_gbps"].get<double>();
  }

  void add(const std::string& device, double copy_gbps) {
    cache_[device] = {{"copy_gbps", copy_gbps}, {"probe", probe_}};
    write_atomically(file_, cache_.dump(2) + "\n");
  }

 private:
  std::filesystem::path file_;
  json cache_;
  std::string probe_;
};

// One run of the probe: its JSON answer, or nullopt with `why_not` said. It answers and stays, holding the
// device open, in `held` (until the next run of the probe, or the end of the command).
std::optional<json> run_probe(const BuildConfig& config, bool with_copy, std::string& why_not,
                              std::shared_ptr<HeldProcess>& held) {
  std::vector<std::string> command{config.probe.string(), "--hold"};
  if (!with_copy) command.push_back("--without-copy");
  // The probe prints one JSON object (possibly after driver noise): the answer is the first whole line that
  // parses as one.
  const auto answer_in = [](const std::string& output) {
    std::istringstream lines(output);
    json answer;
    for (std::string line; std::getline(lines, line) && !lines.eof();) {
      if (auto parsed = json::parse(line, nullptr, false); parsed.is_object()) return parsed;
    }
    return answer;
  };
  CapturedRun run;
  std::unique_ptr<HeldProcess> holding;
  try {
    run = run_until_answered(
        command, kProbeTimeout, [&](const std::string& output) { return answer_in(output).is_object(); },
        holding);
  } catch (const std::exception& e) {
    why_not = e.what();
    return std::nullopt;
  }
  held = std::move(holding);
  const json answer = answer_in(run.output);
  if (!run.status.ok() || !answer.is_object() || !answer.contains("name") || !answer["name"].is_string()) {
    const bool said = answer.is_object() && answer.contains("error") && answer["error"].is_string();
    why_not = said            ? answer["error"].get<std::string>()
              : run.timed_out ? "the GPU probe did not answer"
                              : "the GPU probe failed (" + run.status.describe() + ")";
    return std::nullopt;
  }
  return answer;
}

std::optional<double> measured_copy(const json& answer) {
  if (answer.contains("copy_gbps") && answer["copy_gbps"].is_number())
    return answer["copy_gbps"].get<double>();
  return std::nullopt;
}

}  // namespace

DeviceInfo simulator_device() {
  return {.name = "CPU simulator"};
}

bool gpu_device_visible(const std::filesystem::path& dev) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dev, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 6 && name.starts_with("nvidia") &&
        name.find_first_not_of("0123456789", 6) == std::string::npos)
      return true;
  }
  return false;
}

GpuProbe probe_gpu(const BuildConfig& config) {
  GpuProbe probe;
  if (!config.have_cuda || config.probe.empty()) {
    probe.why_not =
        "this build has no CUDA parts (no nvcc, or PUZZLE_CUDA=OFF: ./puzzle turns CUDA on where it sees a "
        "GPU)";
    return probe;
  }
  if (!std::filesystem::exists(config.probe)) {  // ./puzzle builds the GPU parts only where it sees a GPU
    probe.why_not =
        "the GPU parts are not built: ./puzzle builds them where it sees a GPU (puzzle_gpu_parts)";
    return probe;
  }
  // Where this probe has measured a device before, the likely case is that device again: it is asked only
  // its name, and measured only if it turns out to be new.
  CopyCache cache(config);
  std::optional<json> answer = run_probe(config, !cache.knows_any(), probe.why_not, probe.held_device);
  if (!answer) return probe;
  probe.device.name = (*answer)["name"].get<std::string>();
  probe.device.copy_gbps = cache.find(probe.device.name);
  if (!probe.device.copy_gbps) {
    if (!measured_copy(*answer)) answer = run_probe(config, true, probe.why_not, probe.held_device);
    if (!answer) return probe;
    probe.device.copy_gbps = measured_copy(*answer);
    if (probe.device.copy_gbps) cache.add(probe.device.name, *probe.device.copy_gbps);
  }
  probe.found = true;
  probe.device.compute_capability = compute_capability(*answer);
  return probe;
}

bool gpu_expected(BackendRequest request, const BuildConfig& config) {
  return request != BackendRequest::sim && config.have_cuda && !config.probe.empty() &&
         std::filesystem::exists(config.probe);
}

BackendChoice choose_backend(BackendRequest request, const BuildConfig& config) {
  if (request == BackendRequest::sim) return {Backend::sim, "--backend sim", simulator_device()};
  GpuProbe probe = probe_gpu(config);
  if (probe.found) {
    return {Backend::gpu, request == BackendRequest::gpu ? "--backend gpu" : "GPU found", probe.device,
            probe.held_device};
  }
  if (request == BackendRequest::gpu) {
    throw EnvironmentError("--backend gpu: no GPU to run on (" + probe.why_not +
                           "); run without --backend to use the CPU simulator");
  }
  // Said once and precisely: where the machine has no NVIDIA device, that is the reason, whatever this
  // build holds (a build without CUDA on a machine with nvcc and no GPU is no GPU, not a build problem).
  // Without an NVIDIA driver CUDA says "driver version is insufficient": to a learner with no GPU that
  // reads like a problem to fix, so the usual no-GPU answers are not quoted either.
  const bool plainly_no_gpu = !gpu_device_visible() ||
                              probe.why_not.find("cudaErrorInsufficientDriver") != std::string::npos ||
                              probe.why_not.find("cudaErrorNoDevice") != std::string::npos;
  return {Backend::sim, plainly_no_gpu ? "no GPU found" : "a GPU is visible, but " + probe.why_not,
          simulator_device()};
}

}  // namespace puzzle::cli
