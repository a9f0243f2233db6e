#include "compile/kernel_resources.hpp"

#include <algorithm>

#include "compile/child_build.hpp"
#include "compile/cuda_front_end.hpp"
#include "support/demangle.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"
#include "support/temp_dir.hpp"
#include "support/text_pattern.hpp"

namespace puzzle::cli {

namespace fs = std::filesystem;

perf::KernelResources parse_ptxas_resources(const std::string& output) {
  static const TextPattern entry(R"(Compiling entry function '([^']+)')");
  static const TextPattern stack(R"((\d+) bytes stack frame, (\d+) bytes spill stores)");
  static const TextPattern used(R"(Used (\d+) registers)");
  perf::KernelResources counts;
  std::string kernel;
  int stack_bytes = 0;
  for (size_t start = 0; start < output.size();) {
    const size_t end = std::min(output.find('\n', start), output.size());
    const std::string line = output.substr(start, end - start);
    start = end + 1;
    if (const auto m = entry.search(line)) {
      kernel = perf::kernel_spelling(demangled((*m)[1]));
      stack_bytes = 0;
    } else if (const auto s = kernel.empty() ? std::nullopt : stack.search(line)) {
      // A frame of spilled registers is not one of arrays: only the latter is in the estimate.
      stack_bytes = std::stoi((*s)[2]) == 0 ? std::stoi((*s)[1]) : 0;
    } else if (const auto u = kernel.empty() ? std::nullopt : used.search(line)) {
      const perf::KernelResource resource{.registers = std::stoi((*u)[1]), .stack_bytes = stack_bytes};
      counts[kernel] = resource;
      perf::KernelResource& bare = counts[perf::kernel_base_name(kernel)];
      bare.registers = std::max(bare.registers, resource.registers);
      bare.stack_bytes = std::max(bare.stack_bytes, resource.stack_bytes);
      kernel.clear();
    }
  }
  return counts;
}

namespace {

// Named by the file's content, and by what is kept of nvcc's report and how it was made (a new reading
// must not read old files).
fs::path resources_file(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source) {
  constexpr const char* kReading = "-r3";
  return config.build_dir / "cache" / "resources" /
         (child_key(config, puzzle, source, Backend::sim) + kReading + ".json");
}

void keep(const fs::path& file, const perf::KernelResources& resources) {
  fs::create_directories(file.parent_path());
  write_atomically(file, nlohmann::json(resources).dump() + "\n");
}

}  // namespace

void store_kernel_resources(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                            const std::string& ptxas_report) {
  keep(resources_file(config, puzzle, source), parse_ptxas_resources(ptxas_report));
}

perf::KernelResources kernel_resources(const BuildConfig& config, const PuzzleSpec& puzzle,
                                       const PuzzleSource& source, std::stop_token stop) {
  // The GPU build's nvcc, or else the one CUDA's front end runs: a simulator-only build finds it too.
  const fs::path nvcc = is_runnable(config.nvcc) ? config.nvcc : config.cuda_front_end_nvcc;
  if (!is_runnable(nvcc)) return {};
  const fs::path cache = resources_file(config, puzzle, source);
  if (const auto cached = read_text(cache)) {
    const auto j = nlohmann::json::parse(*cached, nullptr, false);
    if (j.is_object()) return j.get<perf::KernelResources>();
  }
  TempDir work("puzzle-resources-");
  const CapturedRun run =
      run_captured(nvcc_device_command(config, nvcc, source.file, work.path() / "kernels.cubin",
                                       FrontEndReport::rules_and_registers),
                   std::nullopt, StderrMode::merged, stop);
  if (!run.status.ok()) return {};
  const perf::KernelResources counts = parse_ptxas_resources(run.output);
  keep(cache, counts);
  return counts;
}

}  // namespace puzzle::cli
