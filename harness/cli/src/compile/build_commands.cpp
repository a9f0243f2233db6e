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

std::filesystem::path glue_library(const BuildConfig& config, int puzzle_id) {
  const auto glue = config.glue_libraries.find(puzzle_id);
  if (glue == config.glue_libraries.end() || !std::filesystem::exists(glue->second)) {
    throw EnvironmentError("the harness libraries are not built (puzzle_glue for puzzle " +
                           std::to_string(puzzle_id) + " missing in " + config.build_dir.string() +
                           "); build them with `cmake --build " + config.build_dir.string() + "`");
  }
  return glue->second;
}

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

namespace {

// The calls of the learner's code the GPU child sees (harness/child/backend_gpu.cpp): it counts the
// launcher's scratch memory and kernel launches, and refuses the copies that would let host code compute
// the outputs. The learner's shared object is linked with --wrap, so that its calls reach the runner's
// __wrap_* functions; the runner too, so that its __real_* are CUDA's.
constexpr const char* kWrapped[] = {"cudaMalloc",
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

void add_wraps(CommandLine& cmd) {
  for (const char* name : kWrapped) cmd.insert(cmd.end(), {"-Xlinker", std::string("--wrap=") + name});
}

// nvcc and its host compiler, for the device this build targets. One CUDA runtime, the shared one, for the
// runner and the learner's object: its state (the context, registered kernels) must be one.
CommandLine nvcc(const BuildConfig& config) {
  CommandLine cmd{config.nvcc.string(), "-ccbin", config.cxx.string(), "-std=c++20", "-cudart", "shared"};
  const std::vector<std::string> target = gpu_target_flags(config.cuda_arch);
  cmd.insert(cmd.end(), target.begin(), target.end());
  return cmd;
}

// The glue that exports the launcher's address (harness/core/launcher_glue.hpp), pulled from its archive.
constexpr const char* kGlueSymbol = "--undefined=puzzle_launcher_address";

// The math functions a GPU computes on its special-function unit: the learner's calls reach the runner's
// counting wrappers first (sim/src/runtime_api/work_counting.cpp), for the speed estimate.
constexpr const char* kCountedMath[] = {"expf", "exp2f", "logf", "log2f",  "log10f", "powf",   "sinf", "cosf",
                                        "tanf", "tanhf", "erff", "expm1f", "log1pf", "atan2f", "exp",  "exp2",
                                        "log",  "log2",  "pow",  "sin",    "cos",    "tanh"};

}  // namespace

CommandLine sim_library_command(const BuildConfig& config, const std::filesystem::path& object,
                                const std::filesystem::path& glue, const std::filesystem::path& library) {
  // The C library's copies reach the simulator's checks (sim/src/memory/tsan_abi.cpp) before they copy;
  // the counted math functions reach its work counters.
  CommandLine cmd{config.cxx.string(),
                  "-shared",
                  "-o",
                  library.string(),
                  object.string(),
                  std::string("-Wl,") + kGlueSymbol,
                  "-Wl,--wrap=memcpy,--wrap=memmove,--wrap=memset",
                  glue.string()};
  for (const char* name : kCountedMath) cmd.push_back(std::string("-Wl,--wrap=") + name);
  return cmd;
}

CommandLine runner_link_command(const BuildConfig& config, Backend backend,
                                const std::vector<std::filesystem::path>& libraries,
                                const std::filesystem::path& runner) {
  // --export-dynamic: the learner's shared object calls the simulator's runtime (or the GPU wrappers)
  // defined here.
  CommandLine cmd = backend == Backend::gpu ? nvcc(config) : CommandLine{config.cxx.string()};
  cmd.insert(cmd.end(), {"-o", runner.string()});
  for (const auto& lib : libraries) cmd.push_back(lib.string());
  if (backend == Backend::gpu) {
    add_wraps(cmd);
    cmd.insert(cmd.end(), {"-Xlinker", "--export-dynamic"});
  } else {
    cmd.insert(cmd.end(), {"-pthread", "-Wl,--export-dynamic"});
  }
  return cmd;
}

std::vector<std::string> gpu_target_flags(const std::string& arch) {
  if (arch == "90") return {"-gencode", "arch=compute_90a,code=sm_90a"};
  return {"-arch=sm_" + arch};
}

std::string target_architecture(const BuildConfig& config) {
  return config.cuda_arch.empty() ? "90" : config.cuda_arch;
}

CommandLine gpu_compile_command(const BuildConfig& config, const std::filesystem::path& source,
                                const std::filesystem::path& object) {
  // -g: host debug info, so that a refusal names the learner's line (harness/child/call_site.hpp).
  CommandLine cmd = nvcc(config);
  cmd.insert(cmd.end(),
             {"-O3", "-lineinfo", "-g", "-Xcompiler", "-fPIC", "-c", source.string(), "-o", object.string()});
  return cmd;
}

CommandLine gpu_library_command(const BuildConfig& config, const std::filesystem::path& object,
                                const std::filesystem::path& glue, const std::filesystem::path& library,
                                GpuLibraries needs) {
  CommandLine cmd = nvcc(config);
  cmd.insert(cmd.end(),
             {"-shared", "-o", library.string(), object.string(), "-Xlinker", kGlueSymbol, glue.string()});
  if (needs.cublas) cmd.push_back("-lcublas");
  if (needs.driver) cmd.push_back("-lcuda");
  add_wraps(cmd);
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
