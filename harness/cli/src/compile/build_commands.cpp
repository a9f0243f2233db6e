#include "compile/build_commands.hpp"

#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

std::filesystem::path library(const BuildConfig& config, const std::string& target,
                              std::vector<std::string>& missing) {
  const auto it = config.libraries.find(target);
  if (it == config.libraries.end() || !std::filesystem::exists(it->second)) {
    missing.push_back(target);
    return {};
  }
  return it->second;
}

}  // namespace

std::vector<std::filesystem::path> child_libraries(const BuildConfig& config, Backend backend,
                                                   int puzzle_id) {
  std::vector<std::string> missing;
  std::vector<std::filesystem::path> libs;
  libs.push_back(library(config, backend == Backend::gpu ? "puzzle_child_gpu" : "puzzle_child_sim", missing));
  const auto entry = config.entry_libraries.find(puzzle_id);
  if (entry == config.entry_libraries.end() || !std::filesystem::exists(entry->second)) {
    missing.push_back("puzzle_entry for puzzle " + std::to_string(puzzle_id));
  } else {
    libs.push_back(entry->second);
  }
  libs.push_back(library(config, "puzzle_core", missing));
  if (backend == Backend::sim) libs.push_back(library(config, "sim_runtime", missing));
  if (!missing.empty()) {
    std::string names;
    for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
    throw EnvironmentError("the harness libraries are not built (" + names + " missing in " +
                           config.build_dir.string() + "); build them with `cmake --build " +
                           config.build_dir.string() + "`");
  }
  return libs;
}

CommandLine sim_compile_command(const BuildConfig& config, const std::filesystem::path& source,
                                const std::filesystem::path& translated,
                                const std::filesystem::path& object) {
  CommandLine cmd{config.cxx.string()};
  cmd.insert(cmd.end(), config.sim_kernel_flags.begin(), config.sim_kernel_flags.end());
  // The translated copy lives in the build cache: `#include "x.cuh"` must still find the headers beside
  // the original file. Learner files use CUDA without including anything, as nvcc allows.
  cmd.insert(cmd.end(), {"-iquote", source.parent_path().string()});
  // The precompiled headers' folder first (sim/CMakeLists.txt), where the build made it.
  if (!config.sim_pch_dir.empty()) cmd.push_back("-I" + config.sim_pch_dir.string());
  cmd.insert(cmd.end(), {"-I" + config.sim_include_dir.string(), "-include", "cuda_runtime.h", "-c",
                         translated.string(), "-o", object.string()});
  return cmd;
}

CommandLine sim_link_command(const BuildConfig& config, const std::filesystem::path& object,
                             const std::vector<std::filesystem::path>& libraries,
                             const std::filesystem::path& child) {
  CommandLine cmd{config.cxx.string(), "-o", child.string(), object.string()};
  for (const auto& lib : libraries) cmd.push_back(lib.string());
  cmd.push_back("-pthread");
  return cmd;
}

std::vector<std::string> gpu_target_flags(const std::string& arch) {
  if (arch == "90") return {"-gencode", "arch=compute_90a,code=sm_90a"};
  return {"-arch=sm_" + arch};
}

CommandLine gpu_build_command(const BuildConfig& config, const std::filesystem::path& source,
                              const std::vector<std::filesystem::path>& libraries,
                              const std::filesystem::path& child, GpuLibraries needs) {
  CommandLine cmd{config.nvcc.string(), "-ccbin", config.cxx.string(), "-std=c++20", "-O3", "-lineinfo"};
  const std::vector<std::string> target = gpu_target_flags(config.cuda_arch);
  cmd.insert(cmd.end(), target.begin(), target.end());
  cmd.push_back(source.string());
  for (const auto& lib : libraries) cmd.push_back(lib.string());
  if (needs.cublas) cmd.push_back("-lcublas");
  if (needs.driver) cmd.push_back("-lcuda");
  // The child counts the launcher's scratch memory and kernel launches, and refuses the copies that
  // would let host code compute the outputs, through wrappers of these (harness/child/backend_gpu.cpp).
  // The static cudart (nvcc's default) is what the child library was built against.
  static constexpr const char* kWrapped[] = {
      "cudaMalloc",
      "cudaFree",
      "cudaMemcpy",
      "cudaMemcpyAsync",
      "cudaMemcpy2D",
      "cudaMemcpy2DAsync",
      "cudaMemcpyFromSymbol",
      "cudaMemcpyFromSymbolAsync",
      "cudaMemcpyPeer",
      "cudaMemcpyPeerAsync",
      "cudaMemcpy3D",
      "cudaMemcpy3DAsync",
      "cudaLaunchKernel",
      "cudaLaunchKernelExC",
      "cudaLaunchCooperativeKernel",
      "cudaGraphLaunch",
      "cudaStreamDestroy",
      "__cudaLaunchKernel",
      "__cudaLaunchKernel_ptsz"};  // what `kernel<<<...>>>` calls since CUDA 13
  cmd.insert(cmd.end(), {"-cudart", "static"});
  for (const char* name : kWrapped) cmd.insert(cmd.end(), {"-Xlinker", std::string("--wrap=") + name});
  cmd.insert(cmd.end(), {"-o", child.string()});
  return cmd;
}

std::string to_shell(const CommandLine& command) {
  std::string text;
  for (const auto& arg : command) {
    const bool plain = arg.find_first_of(" \t\"'$\\") == std::string::npos && !arg.empty();
    std::string quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += (text.empty() ? "" : " ") + (plain ? arg : quoted + "'");
  }
  return text;
}

}  // namespace puzzle::cli
