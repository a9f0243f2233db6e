// CUDA's own compile rules on the simulator's path. g++ with the simulator's headers accepts code that
// nvcc rejects (a helper without __device__ called from a kernel, a constexpr host function such as
// std::max in device code), so every simulator build also compiles the file with CUDA's front end, nvcc,
// device side only, beside the simulator's compile, wherever nvcc is installed (no GPU needed). Its errors
// are the build's errors. Without nvcc a build says it was not checked against CUDA's rules.
#pragma once
#include <future>
#include <optional>
#include <string>

#include "model/build_config.hpp"
#include "model/puzzle_source.hpp"
#include "support/subprocess.hpp"

namespace puzzle::cli {

struct CudaFrontEnd {
  std::string name;  // "nvcc"
  std::filesystem::path compiler;
};

// The front end simulator builds use: nvcc if the build found one, unless PUZZLE_CUDA_FRONT_END=none;
// nullopt otherwise (builds are then not checked against CUDA's rules).
std::optional<CudaFrontEnd> cuda_front_end(const BuildConfig& config);

// "nvcc (/usr/local/cuda/bin/nvcc)", or why there is none: for `doctor` and the reports.
std::string describe_cuda_front_end(const BuildConfig& config);

// The front end compiling `source` on a thread of its own, from construction until `finish`.
class FrontEndCheck {
 public:
  FrontEndCheck(const BuildConfig& config, const CudaFrontEnd& front_end, const PuzzleSource& source,
                const std::filesystem::path& scratch_dir);
  // Waits for it: the compiler's output when it rejected the file, nullopt when it accepted it.
  std::optional<std::string> finish();
  std::string command() const;

 private:
  std::vector<std::string> argv_;
  std::future<CapturedRun> run_;
};

}  // namespace puzzle::cli
