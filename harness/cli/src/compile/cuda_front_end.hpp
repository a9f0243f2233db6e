// CUDA's own compile rules on the simulator's path. g++ with the simulator's headers accepts code that
// nvcc rejects (a helper without __device__ called from a kernel, a constexpr host function such as
// std::max in device code), so every simulator build also compiles the file with a CUDA front end, device
// side only, beside the simulator's compile (no GPU needed): nvcc where it is installed, else clang's CUDA
// mode over the project's declarations of CUDA's headers (sim/front_end_include). Its errors are the
// build's errors. Without either a build says it was not checked against CUDA's rules.
#pragma once
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "model/build_config.hpp"
#include "model/puzzle_source.hpp"
#include "support/subprocess.hpp"
#include "support/temp_dir.hpp"

namespace puzzle::cli {

struct CudaFrontEnd {
  std::string name;  // "nvcc" or "clang"
  std::filesystem::path compiler;
};

// The front end simulator builds use: nvcc if the build found one, else clang; PUZZLE_CUDA_FRONT_END
// (nvcc, clang or none) picks one, or none. nullopt when there is none (builds are then not checked
// against CUDA's rules). UsageError for another value of PUZZLE_CUDA_FRONT_END.
std::optional<CudaFrontEnd> cuda_front_end(const BuildConfig& config);

// "nvcc (/usr/local/cuda/bin/nvcc)", or why there is none: for `doctor` and the reports.
std::string describe_cuda_front_end(const BuildConfig& config);

// What makes a front end's verdict on a file: its name, compiler and the headers it reads (for the cache
// key of a simulator build).
std::string cuda_front_end_identity(const BuildConfig& config, const CudaFrontEnd& front_end);

// What nvcc's compile of the device code must tell besides whether CUDA's rules accept the file: nothing
// (then at a lower optimization, which rejects what the GPU build's rejects in a fraction of its time), or
// also each kernel's registers and stack frame for the speed estimate (the GPU build's optimization).
enum class FrontEndReport { rules, rules_and_registers };

// `nvcc` compiling `file`'s device code for the GPU build's architecture into `cubin`; for
// rules_and_registers as the GPU build does, with ptxas's report (-v): the nvcc front end's command, and
// the register report's alone.
std::vector<std::string> nvcc_device_command(const BuildConfig& config, const std::filesystem::path& nvcc,
                                             const std::filesystem::path& file,
                                             const std::filesystem::path& cubin, FrontEndReport report);

// The command that checks `file` (device side only; what it writes goes to scratch_dir).
std::vector<std::string> cuda_front_end_command(const BuildConfig& config, const CudaFrontEnd& front_end,
                                                const std::filesystem::path& file,
                                                const std::filesystem::path& scratch_dir,
                                                FrontEndReport report);

struct FrontEndVerdict {
  bool checked = true;                // false: the front end could not judge (a header clang's set lacks)
  std::optional<std::string> errors;  // the compiler's output when it rejected the file
  std::string resource_report;        // nvcc's for rules_and_registers: ptxas's registers and stack frames
};

// The front end compiling `source` on a thread of its own, from construction until `finish`, its output in a
// folder of its own (the build's may be renamed meanwhile).
class FrontEndCheck {
 public:
  FrontEndCheck(const BuildConfig& config, const CudaFrontEnd& front_end, const PuzzleSource& source,
                FrontEndReport report);
  // Waits for it.
  FrontEndVerdict finish();
  std::string command() const;

 private:
  CudaFrontEnd front_end_;
  FrontEndReport report_;
  std::unique_ptr<TempDir> output_;  // outlives run_ (declared first)
  std::vector<std::string> argv_;
  std::future<CapturedRun> run_;
};

// A front end's run of cuda_front_end_command judged: clang's as nvcc would judge the file
// (cuda_front_end.cpp says where they differ).
FrontEndVerdict judge_front_end_run(const CudaFrontEnd& front_end, CapturedRun run);

}  // namespace puzzle::cli
