// The compiler command lines that turn a puzzle file into a child program.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "model/build_config.hpp"
#include "model/check_report.hpp"

namespace puzzle::cli {

using CommandLine = std::vector<std::string>;

// A child is two files: the runner, an executable of the harness's libraries for one puzzle and backend
// (shared by every build of that puzzle), and the learner's shared object, which the runner loads only
// after it has taken its session key (docs/grading.md, "What the learner's code cannot change").

// The static libraries the runner of `backend` for puzzle `id` links, in link order. EnvironmentError
// naming the missing ones if the build has not made them.
std::vector<std::filesystem::path> child_libraries(const BuildConfig& config, Backend backend, int puzzle_id);
// The puzzle's glue archive (harness/core/launcher_glue.hpp), linked into the learner's shared object.
std::filesystem::path glue_library(const BuildConfig& config, int puzzle_id);

CommandLine runner_link_command(const BuildConfig& config, Backend backend,
                                const std::vector<std::filesystem::path>& libraries,
                                const std::filesystem::path& runner);

// Simulator: compile the translated file, then link it and the glue into a shared object.
CommandLine sim_compile_command(const BuildConfig& config, const std::filesystem::path& source,
                                const std::filesystem::path& translated, const std::filesystem::path& object);
CommandLine sim_library_command(const BuildConfig& config, const std::filesystem::path& object,
                                const std::filesystem::path& glue, const std::filesystem::path& library);

// The libraries beyond the CUDA runtime that a puzzle file needs on the GPU.
struct GpuLibraries {
  bool cublas = false;  // cuBLAS: the baselines of `puzzle bench`
  bool driver = false;  // the driver API (libcuda): cuTensorMapEncodeTiled for TMA copies
};

// nvcc's target for architecture `arch` ("90"): on Hopper the arch-specific sm_90a, which wgmma and
// setmaxnreg need, written as -gencode (the -arch=sm_90a shorthand, with several inputs, also ran a plain
// compute_90 pass that rejected them); elsewhere -arch=sm_<arch>.
std::vector<std::string> gpu_target_flags(const std::string& arch);
// The GPU build's architecture, or an H100's ("90", as the simulator models) in a build without CUDA.
std::string target_architecture(const BuildConfig& config);

// GPU: compile the learner's file, then link it and the glue into a shared object, with the libraries it
// needs.
CommandLine gpu_compile_command(const BuildConfig& config, const std::filesystem::path& source,
                                const std::filesystem::path& object);
CommandLine gpu_library_command(const BuildConfig& config, const std::filesystem::path& object,
                                const std::filesystem::path& glue, const std::filesystem::path& library,
                                GpuLibraries needs);

std::string to_shell(const CommandLine& command);  // for logs and --verbose

}  // namespace puzzle::cli
