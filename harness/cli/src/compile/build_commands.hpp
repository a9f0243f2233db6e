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

// GPU: one nvcc call compiles the learner's file and links the child (with cuBLAS for a file that uses
// it: the baselines of `puzzle bench`).
CommandLine gpu_build_command(const BuildConfig& config, const std::filesystem::path& source,
                              const std::vector<std::filesystem::path>& libraries,
                              const std::filesystem::path& child, bool link_cublas);

std::string to_shell(const CommandLine& command);  // for logs and --verbose

}  // namespace puzzle::cli
