#include <chrono>
#include <sstream>

#include "commands/commands.hpp"
#include "compile/cuda_front_end.hpp"
#include "pipelines/check_pipeline.hpp"
#include "report/text_format.hpp"
#include "run/device_probe.hpp"
#include "support/errors.hpp"
#include "support/subprocess.hpp"

namespace puzzle::cli {
namespace {

enum class Verdict { ok, failed, absent };

class DoctorReport {
 public:
  DoctorReport(Style style, std::ostream& out) : style_(style), out_(out) {}
  void item(Verdict verdict, const std::string& what, const std::string& detail) {
    const std::string tag = verdict == Verdict::ok ? "ok" : verdict == Verdict::failed ? "FAILED" : "--";
    const Tone tone = verdict == Verdict::ok       ? Tone::good
                      : verdict == Verdict::failed ? Tone::bad
                                                   : Tone::dim;
    out_ << "  " << style_(padded(tag, 8), tone) << padded(what, 24) << detail << "\n";
    out_.flush();
  }

 private:
  Style style_;
  std::ostream& out_;
};

// The first (or last) line that `tool --version` prints.
std::optional<std::string> version_line(const std::filesystem::path& tool, bool last) {
  try {
    const auto run = run_captured({tool.string(), "--version"}, std::chrono::seconds(30));
    if (!run.status.ok()) return std::nullopt;
    std::istringstream lines(run.output);
    std::string line, picked;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      if (picked.empty() || last) picked = line;
    }
    return picked;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Builds and checks puzzle 1's reference solution; true when every case passes.
bool self_check(const BuildConfig& config, BackendRequest backend, const std::string& what,
                DoctorReport& report) {
  const CheckOptions options{.puzzle = "1", .backend = backend, .seed = 1, .solution = true};
  const auto started = std::chrono::steady_clock::now();
  const CheckReport check = run_check(options, "puzzle doctor", config);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!check.error.empty()) {
    report.item(Verdict::failed, what, check.error);
    return false;
  }
  const PuzzleReport& p = check.puzzles.front();
  const std::string counts = std::to_string(passed_cases(p)) + "/" + std::to_string(counted_cases(p)) +
                             " cases of puzzle 1's solution passed in " + format_seconds(took);
  if (p.status == PuzzleStatus::passed) {
    report.item(Verdict::ok, what, counts);
    return true;
  }
  report.item(Verdict::failed, what,
              std::string(to_string(p.status)) + (p.build.ok ? ": " + counts : ": " + p.build.message));
  return false;
}

}  // namespace

int doctor_command(const BuildConfig& config, Style style, std::ostream& out) {
  DoctorReport report(style, out);
  out << style("puzzle doctor", Tone::bold) << " (version " << config.version << ")\n";
  const auto cxx = version_line(config.cxx, false);
  report.item(cxx ? Verdict::ok : Verdict::failed, "host compiler",
              cxx.value_or("cannot run " + config.cxx.string()));

  if (config.have_cuda) {
    const auto nvcc = version_line(config.nvcc, true);
    report.item(nvcc ? Verdict::ok : Verdict::failed, "nvcc",
                nvcc.value_or("cannot run " + config.nvcc.string()));
    report.item(Verdict::ok, "CUDA configured", "yes, for sm_" + config.cuda_arch);
  } else {
    report.item(Verdict::absent, "CUDA configured",
                "no: the GPU backend is off, the simulator works without it");
  }

  const bool front_end = cuda_front_end(config).has_value();
  report.item(front_end ? Verdict::ok : Verdict::absent, "CUDA's compile rules",
              front_end ? describe_cuda_front_end(config) + " compiles every simulator build's file too"
                        : describe_cuda_front_end(config));

  const GpuProbe gpu = probe_gpu(config);
  if (gpu.found) {
    std::string detail = gpu.device.name;
    if (gpu.device.compute_capability) detail += ", compute capability " + *gpu.device.compute_capability;
    if (gpu.device.copy_gbps) detail += ", copy " + fixed(*gpu.device.copy_gbps, 0) + " GB/s";
    report.item(Verdict::ok, "GPU", detail);
  } else {
    report.item(Verdict::absent, "GPU", "none (" + gpu.why_not + "); checks run on the simulator");
  }

  const bool sim_ok = self_check(config, BackendRequest::sim, "self-check (simulator)", report);
  if (gpu.found) self_check(config, BackendRequest::gpu, "self-check (GPU)", report);
  out << "\n"
      << (sim_ok ? "The simulator works: `puzzle check 1` is the place to start.\n"
                 : "The simulator self-check failed: checks cannot be trusted until it passes.\n");
  return sim_ok ? kExitPassed : kExitEnvironment;
}

}  // namespace puzzle::cli
