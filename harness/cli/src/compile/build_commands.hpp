// The compiler command lines that turn a puzzle file into a child program.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "model/build_config.hpp"
#include "model/check_report.hpp"

namespace puzzle::cli {

using CommandLine = std::vector<std::string>;

// The static libraries a child of `backend` for puzzle `id` links, in link order. EnvironmentError
// naming the missing ones if the build has not made them.
std::vector<std::filesystem::path> child_libraries(const BuildConfig& config, Backend backend, int puzzle_id);

// Simulator: compile the translated file, then link it with the child's libraries.
CommandLine sim_compile_command(const BuildConfig& config, const std::filesystem::path& source,
                                const std::filesystem::path& translated, const std::filesystem::path& object);
CommandLine sim_link_command(const BuildConfig& config, const std::filesystem::path& object,
                             const std::vector<std::filesystem::path>& libraries,
                             const std::filesystem::path& child);

// The libraries beyond the CUDA runtime that a puzzle file needs on the GPU.
struct GpuLibraries {
  bool cublas = false;  // cuBLAS: the baselines of `puzzle bench`
  bool driver = false;  // the driver API (libcuda): cuTensorMapEncodeTiled for TMA copies
};

// nvcc's target for architecture `arch` ("90"): on Hopper the arch-specific sm_90a, which wgmma and
// setmaxnreg need, written as -gencode (the -arch=sm_90a shorthand, with several inputs, also ran a plain
// compute_90 pass that rejected them); elsewhere -arch=sm_<arch>.
std::vector<std::string> gpu_target_flags(const std::string& arch);

// GPU: one nvcc call compiles the learner's file and links the child.
CommandLine gpu_build_command(const BuildConfig& config, const std::filesystem::path& source,
                              const std::vector<std::filesystem::path>& libraries,
                              const std::filesystem::path& child, GpuLibraries needs);

std::string to_shell(const CommandLine& command);  // for logs and --verbose

}  // namespace puzzle::cli
