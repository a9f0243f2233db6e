#include "compile/cuda_front_end.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "compile/build_commands.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/text_pattern.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;

// clang's CUDA mode, device side, syntax only (no PTX is made, so inline asm is not checked). Its own
// device headers and CUDA wrappers are left out (-nogpuinc, -nobuiltininc): they need CUDA's headers, and
// its wrapper of <algorithm> makes std::min and std::max device functions, which nvcc's are not. Its
// builtin headers come back with -isystem, and the project's declarations of CUDA's headers are included
// first, as nvcc includes cuda_runtime.h. Constexpr host functions stay host functions
// (-fno-cuda-host-device-constexpr: nvcc without --expt-relaxed-constexpr). sm_80: a target every clang
// from 14 on knows, with the builtins its headers use; __CUDA_ARCH__ is the GPU build's, so that the same
// `#if __CUDA_ARCH__ >= 900` branches are compiled as by nvcc.
std::vector<std::string> clang_command(const BuildConfig& config, const CudaFrontEnd& front_end,
                                       const fs::path& file) {
  return {front_end.compiler.string(),
          "-x",
          "cuda",
          "--cuda-device-only",
          "--cuda-gpu-arch=sm_80",
          "-fsyntax-only",
          "-std=c++20",
          "-nogpuinc",
          "-nogpulib",
          "-nobuiltininc",
          "-isystem",
          config.cuda_front_end_clang_include.string(),
          "-isystem",
          config.cuda_front_end_headers.string(),
          "-include",
          "cuda_runtime.h",
          "-Xclang",
          "-fno-cuda-host-device-constexpr",
          "-Wno-unknown-cuda-version",  // an installed toolkit newer than clang knows: not used here
          "-U__CUDA_ARCH__",
          "-D__CUDA_ARCH__=" + target_architecture(config) + "0",
          file.string()};
}

// One diagnostic of clang's: its first line, and the lines after it (the source line, the caret, notes
// and the "In file included from" lines of the next) up to the next diagnostic.
struct Diagnostic {
  std::string file;
  int line = 0, column = 0;
  std::string severity;  // "error", "fatal error", "warning", "note"
  std::string message;
  std::string text;  // all its lines
};

std::vector<Diagnostic> clang_diagnostics(const std::string& output) {
  static const TextPattern head(R"re(^(.+):(\d+):(\d+): (fatal error|error|warning|note): (.*)$)re"),
      count(R"re(^\d+ (warning|error)s?( and \d+ errors?)? generated)re");
  std::vector<Diagnostic> found;
  std::string pending;  // "In file included from" lines, which belong to the diagnostic after them
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    const auto m = line.starts_with("In file included from") ? std::nullopt : head.match(line);
    const bool diagnostic = m.has_value();
    if (line.starts_with("In file included from")) {
      pending += line + "\n";
    } else if (diagnostic && (*m)[4] != "note") {
      found.push_back(
          {(*m)[1], std::stoi((*m)[2]), std::stoi((*m)[3]), (*m)[4], (*m)[5], pending + line + "\n"});
      pending.clear();
    } else if (count.search(line)) {
      continue;  // "1 error generated when compiling for sm_80": the errors judged are what is shown
    } else if (diagnostic && !found.empty() && found.back().text.find(line + "\n") != std::string::npos) {
      continue;  // the same note again (one per overload of a shuffle the call cannot reach)
    } else if (!found.empty()) {
      found.back().text += pending + line + "\n";
      pending.clear();
    }
  }
  return found;
}

// `__shared__ T v;` where T's default constructor does something (a default member initializer): clang
// refuses it ("initialization is not supported for __shared__ variables"), nvcc accepts it and leaves the
// variable uninitialized, as the solutions' `__shared__ MaxSum row;` expects. Both refuse an initializer
// written out (`= ...`, `{...}`, `(...)`), which is what follows the name at the diagnostic's column.
bool shared_variable_without_initializer(const Diagnostic& d) {
  if (!d.message.starts_with("initialization is not supported for __shared__ variables")) return false;
  const auto text = read_text(d.file);
  if (!text) return false;
  std::istringstream lines(*text);
  std::string line;
  for (int i = 0; i < d.line && std::getline(lines, line);) ++i;
  size_t at = static_cast<size_t>(d.column - 1);
  while (at < line.size() && (std::isalnum(static_cast<unsigned char>(line[at])) || line[at] == '_')) ++at;
  // Past the name's array bounds, if any.
  for (at = line.find_first_not_of(" \t", at); at != std::string::npos && line[at] == '[';
       at = line.find_first_not_of(" \t", at)) {
    at = line.find(']', at);
    if (at == std::string::npos) return false;
    ++at;
  }
  return at != std::string::npos && (line[at] == ';' || line[at] == ',');
}

// The errors of clang's that nvcc (13) only warns of, building the file: the __shared__ variable above, and
// a __host__ __device__ function that a kernel calls calling a host function (#20011-D, std::max's
// #20013-D).
bool nvcc_only_warns(const Diagnostic& d) {
  static const TextPattern host_call("reference to __host__ function '.*' in __host__ __device__ function");
  return host_call.match(d.message) || shared_variable_without_initializer(d);
}

FrontEndVerdict judge_clang(CapturedRun run) {
  if (run.status.ok()) return {};
  std::vector<Diagnostic> diagnostics = clang_diagnostics(run.output);
  // No verdict on CUDA's rules when clang crashed (clang 14 does on <regex> in C++20's CUDA mode) or lacks
  // a header the project does not declare (CUB, cuBLAS ...): the simulator's build says what it makes of
  // the file.
  const auto missing_header = [](const Diagnostic& d) {
    return d.severity == "fatal error" && d.message.ends_with("file not found");
  };
  if (run.output.find("clang frontend command failed") != std::string::npos ||
      std::any_of(diagnostics.begin(), diagnostics.end(), missing_header))
    return {.checked = false};
  // Not a diagnostic of the file's (clang itself refused to start): shown as it is.
  if (diagnostics.empty()) return {.errors = std::move(run.output)};
  std::erase_if(diagnostics, nvcc_only_warns);
  const auto error = [](const Diagnostic& d) { return d.severity.ends_with("error"); };
  if (std::none_of(diagnostics.begin(), diagnostics.end(), error)) return {};
  std::string shown;
  for (const Diagnostic& d : diagnostics) shown += d.text;
  return {.errors = std::move(shown)};
}

}  // namespace

std::optional<CudaFrontEnd> cuda_front_end(const BuildConfig& config) {
  const char* chosen_env = std::getenv("PUZZLE_CUDA_FRONT_END");
  const std::string chosen = chosen_env ? chosen_env : "";
  if (!chosen.empty() && chosen != "nvcc" && chosen != "clang" && chosen != "none")
    throw UsageError("PUZZLE_CUDA_FRONT_END=" + chosen + ": it is nvcc, clang or none");
  if ((chosen.empty() || chosen == "nvcc") && is_runnable(config.cuda_front_end_nvcc))
    return CudaFrontEnd{"nvcc", config.cuda_front_end_nvcc};
  if ((chosen.empty() || chosen == "clang") && is_runnable(config.cuda_front_end_clang))
    return CudaFrontEnd{"clang", config.cuda_front_end_clang};
  return std::nullopt;
}

std::string describe_cuda_front_end(const BuildConfig& config) {
  if (const auto front_end = cuda_front_end(config))
    return (front_end->name == "clang" ? "clang's CUDA mode" : front_end->name) + " (" +
           front_end->compiler.string() + ")";
  const char* chosen = std::getenv("PUZZLE_CUDA_FRONT_END");
  if (chosen && std::string(chosen) == "none")
    return "none (PUZZLE_CUDA_FRONT_END=none): simulator checks are not checked against CUDA's rules";
  if (chosen && *chosen)
    return std::string("none: PUZZLE_CUDA_FRONT_END=") + chosen +
           ", which the build did not find, so simulator checks are not checked against CUDA's rules";
  return "none: neither nvcc nor clang (14 or newer) was found when the build was configured, so "
         "simulator checks are not checked against CUDA's rules; install clang or the CUDA toolkit and "
         "reconfigure";
}

std::string cuda_front_end_identity(const BuildConfig& config, const CudaFrontEnd& front_end) {
  std::string identity = front_end.name + " " + front_end.compiler.string();
  if (front_end.name != "clang") return identity;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(config.cuda_front_end_headers, ec)) {
    if (entry.is_regular_file())
      identity += " " + entry.path().string() + " " + modification_stamp(entry.path());
  }
  return identity;
}

// Device code only, for the GPU build's architecture (sm_90a on Hopper: wgmma needs it): the front end (cicc)
// parses the whole file, host code included, against CUDA's headers, and ptxas checks any inline PTX.
// - rules_and_registers: at the GPU build's optimization, with ptxas's resource report (-v): the same
//   compile gives the registers and stack frames the speed estimate needs (kernel_resources.hpp), which a
//   second compile cost puzzle 1's edit-check 0.8 s of CPU (two cores, 2026-11-29).
// - rules: cicc at -O1 and ptxas at -O0. What they reject does not depend on the level: the parse, the asm
//   operands that must be constants (checked by the parse) and the PTX's syntax and types are the same;
//   only the time does (puzzle 6's ladder top: 9.5 s of CPU against 1.7; puzzle 1's clear version 0.57
//   against 0.35). Not cicc -O0: it keeps dead code, such as a branch behind a false constant, whose
//   inline PTX for another GPU ptxas would then refuse though the GPU build drops it (a test in
//   tests/cli/test_child_build.cpp). Every kernel file of the project gets the same verdict both ways
//   (docs/measurements/first_minutes.md).
std::vector<std::string> nvcc_device_command(const BuildConfig& config, const fs::path& nvcc,
                                             const fs::path& file, const fs::path& cubin,
                                             FrontEndReport report) {
  std::vector<std::string> argv{nvcc.string(), "-std=c++20"};
  for (const std::string& flag : gpu_target_flags(target_architecture(config)))
    argv.push_back(flag);  // the GPU build's
  const std::vector<std::string> level = report == FrontEndReport::rules
                                             ? std::vector<std::string>{"-Xcicc", "-O1", "-Xptxas", "-O0"}
                                             : std::vector<std::string>{"-Xptxas", "-v"};
  argv.insert(argv.end(), level.begin(), level.end());
  for (const char* flag : {"-cubin", "-o"}) argv.push_back(flag);
  argv.push_back(cubin.string());
  argv.push_back(file.string());
  return argv;
}

std::vector<std::string> cuda_front_end_command(const BuildConfig& config, const CudaFrontEnd& front_end,
                                                const fs::path& file, const fs::path& scratch_dir,
                                                FrontEndReport report) {
  return front_end.name == "clang"
             ? clang_command(config, front_end, file)
             : nvcc_device_command(config, front_end.compiler, file, scratch_dir / "front_end.cubin", report);
}

FrontEndVerdict judge_front_end_run(const CudaFrontEnd& front_end, CapturedRun run) {
  if (front_end.name == "clang") return judge_clang(std::move(run));
  if (run.status.ok()) return {.resource_report = std::move(run.output)};
  return {.errors = std::move(run.output)};
}

FrontEndCheck::FrontEndCheck(const BuildConfig& config, const CudaFrontEnd& front_end,
                             const PuzzleSource& source, FrontEndReport report)
    : front_end_(front_end),
      report_(report),
      output_(std::make_unique<TempDir>("puzzle-front-end-")),
      argv_(cuda_front_end_command(config, front_end, source.file, output_->path(), report)),
      run_(std::async(std::launch::async, [argv = argv_] { return run_captured(argv); })) {}

FrontEndVerdict FrontEndCheck::finish() {
  FrontEndVerdict verdict = judge_front_end_run(front_end_, run_.get());
  if (report_ == FrontEndReport::rules) verdict.resource_report.clear();  // no -v: not a report
  return verdict;
}

std::string FrontEndCheck::command() const {
  return to_shell(argv_);
}

}  // namespace puzzle::cli
