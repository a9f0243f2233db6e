#include "compile/cuda_front_end.hpp"

#include <unistd.h>

#include <cstdlib>

#include "compile/build_commands.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;

bool runnable(const fs::path& tool) {
  return !tool.empty() && access(tool.c_str(), X_OK) == 0;
}

std::string architecture(const BuildConfig& config) {
  return config.cuda_arch.empty() ? "90" : config.cuda_arch;  // an H100's, as the simulator models
}

// Device code only, for the GPU build's architecture (sm_90a on Hopper: wgmma needs it): the front end (cicc)
// parses the whole file, host code included, against CUDA's headers, and ptxas checks any inline PTX. cicc's
// optimizer is off (-O0): it reports nothing the front end has not, and it took half of the time (puzzle
// 10: 1.74 -> 0.87 s of CPU). So is ptxas's, which still parses the PTX and checks resources (puzzle 10's
// 2_fa2_tiles.cu: 2.39 -> 1.58 s, puzzle 1's clear solution 0.59 -> 0.45 s, CUDA 13, g++ 12).
std::vector<std::string> front_end_command(const BuildConfig& config, const CudaFrontEnd& front_end,
                                           const fs::path& file, const fs::path& scratch_dir) {
  std::vector<std::string> argv{front_end.compiler.string(), "-std=c++20"};
  for (const std::string& flag : gpu_target_flags(architecture(config)))
    argv.push_back(flag);  // the GPU build's
  for (const char* flag : {"-cubin", "-Xcicc", "-O0", "-Xptxas", "-O0", "-o"}) argv.push_back(flag);
  argv.push_back((scratch_dir / "front_end.cubin").string());
  argv.push_back(file.string());
  return argv;
}

}  // namespace

std::optional<CudaFrontEnd> cuda_front_end(const BuildConfig& config) {
  const char* chosen = std::getenv("PUZZLE_CUDA_FRONT_END");
  if ((chosen && std::string(chosen) == "none") || !runnable(config.cuda_front_end_nvcc)) return std::nullopt;
  return CudaFrontEnd{"nvcc", config.cuda_front_end_nvcc};
}

std::string describe_cuda_front_end(const BuildConfig& config) {
  if (const auto front_end = cuda_front_end(config))
    return front_end->name + " (" + front_end->compiler.string() + ")";
  return "none: no nvcc was found when the build was configured (or PUZZLE_CUDA_FRONT_END=none), so "
         "simulator checks are not checked against CUDA's rules; install the CUDA toolkit and reconfigure";
}

FrontEndCheck::FrontEndCheck(const BuildConfig& config, const CudaFrontEnd& front_end,
                             const PuzzleSource& source, const fs::path& scratch_dir)
    : argv_(front_end_command(config, front_end, source.file, scratch_dir)),
      run_(std::async(std::launch::async, [argv = argv_] { return run_captured(argv); })) {}

std::optional<std::string> FrontEndCheck::finish() {
  CapturedRun result = run_.get();
  if (result.status.ok()) return std::nullopt;
  return std::move(result.output);
}

std::string FrontEndCheck::command() const {
  return to_shell(argv_);
}

}  // namespace puzzle::cli
