#include "compile/child_build.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "compile/build_commands.hpp"
#include "compile/content_hash.hpp"
#include "compile/cuda_front_end.hpp"
#include "compile/kernel_resources.hpp"
#include "compile/link_errors.hpp"
#include "compile/object_check.hpp"
#include "compile/puzzle_parts.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"
#include "support/text_pattern.hpp"
#include "translate.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;

constexpr size_t kBuildsKeptPerPuzzle = 8;
constexpr auto kRecentUse = std::chrono::minutes(10);
constexpr const char* kScratchSuffix = ".tmp-";

struct LocalHeader {
  fs::path path;
  std::string text;
};

// The headers `text` includes with quotes that lie beside `file`, and theirs, each once: a test kernel's
// shared header or a solution's changes the child as much as the file itself.
void add_local_headers(const fs::path& file, const std::string& text, std::vector<LocalHeader>& found) {
  static const TextPattern include(R"re(^\s*#\s*include\s*"([^"]+)")re", /*multiline=*/true);
  for (const PatternMatch& m : include.find_all(text)) {
    const fs::path header = (file.parent_path() / m[1]).lexically_normal();
    const auto same = [&](const LocalHeader& h) { return h.path == header; };
    if (std::find_if(found.begin(), found.end(), same) != found.end()) continue;
    auto header_text = read_text(header);
    if (!header_text) continue;  // not beside the file: the compiler's search path, not ours to track
    found.push_back({header, std::move(*header_text)});
    add_local_headers(header, found.back().text, found);
  }
}

std::vector<LocalHeader> local_headers(const PuzzleSource& source) {
  std::vector<LocalHeader> found;
  add_local_headers(source.file, source.text, found);
  return found;
}

// Everything that changes the child: the source (and its path, which debug info and messages name) with
// its local headers, the tools and flags, the libraries, and the simulator's translator (linked into this
// program). "<backend>-<hash>": the name of the child's folder.
std::string cache_key(const BuildConfig& config, const PuzzleSource& source, Backend backend,
                      const std::vector<fs::path>& libraries) {
  ContentHash hash;
  hash.add(to_string(backend)).add(source.file.string()).add(source.text);
  for (const auto& header : local_headers(source)) hash.add(header.path.string()).add(header.text);
  hash.add(config.cxx.string())
      .add(config.sim_include_dir.string())
      .add(config.nvcc.string())
      .add(config.cuda_arch);
  for (const auto& flag : config.sim_kernel_flags) hash.add(flag);
  if (backend == Backend::sim) {
    const auto front_end = cuda_front_end(config);
    hash.add(front_end ? cuda_front_end_identity(config, *front_end) : "no CUDA front end");
  }
  for (const auto& lib : libraries) hash.add(lib.string()).add(modification_stamp(lib));
  if (const auto translator = config.libraries.find("sim_translate"); translator != config.libraries.end()) {
    hash.add(modification_stamp(translator->second));
  }
  // Rebuilt when the simulator's headers change: a child compiled against the old ones is stale.
  if (!config.sim_pch_dir.empty()) hash.add(modification_stamp(config.sim_pch_dir / "cuda_runtime.h.gch"));
  return std::string(to_string(backend)) + "-" + hash.hex();
}

void require_tool(const fs::path& tool, const std::string& what) {
  if (tool.empty() || access(tool.c_str(), X_OK) != 0) {
    throw EnvironmentError("cannot find the " + what + " (" +
                           (tool.empty() ? "not configured" : tool.string()) +
                           "); reconfigure the build with one installed");
  }
}

class BuildSteps {
 public:
  explicit BuildSteps(BuildInfo& info) : info_(info) {}

  bool run(const CommandLine& command) {
    info_.commands.push_back(to_shell(command));
    const CapturedRun result = run_captured(command);
    info_.log += result.output;
    return result.status.ok();
  }

  bool fail(std::string message) {
    info_.message = std::move(message);
    return false;
  }

 private:
  BuildInfo& info_;
};

constexpr const char* kRunnerPrefix = "runner-";

// The runner of `backend` for the puzzle: linked once from the harness's libraries (it does not depend on
// the learner's file), with the list of the symbols it exports beside it. EnvironmentError if it does not
// link: the harness is broken, not the learner's file.
fs::path runner_for(const BuildConfig& config, const PuzzleSpec& puzzle, Backend backend,
                    const std::vector<fs::path>& libraries) {
  ContentHash hash;
  hash.add(to_string(backend)).add(config.cxx.string()).add(config.nvcc.string()).add(config.cuda_arch);
  for (const auto& lib : libraries) hash.add(lib.string()).add(modification_stamp(lib));
  const fs::path dir = config.build_dir / "checks" / puzzle.slug /
                       (kRunnerPrefix + std::string(to_string(backend)) + "-" + hash.hex());
  const fs::path runner = dir / "child";
  if (fs::exists(runner)) {
    fs::last_write_time(dir, fs::file_time_type::clock::now());  // most recently used: pruned last
    return runner;
  }
  const fs::path scratch = dir.string() + kScratchSuffix + unique_suffix();
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  const CapturedRun link = run_captured(runner_link_command(config, backend, libraries, scratch / "child"));
  if (!link.status.ok()) {
    fs::remove_all(scratch);
    throw EnvironmentError("the harness's runner for puzzle " + std::to_string(puzzle.id) +
                           " does not link:\n" + link.output);
  }
  write_atomically(scratch / "exports", exported_symbols(scratch / "child"));
  std::error_code ec;
  fs::rename(scratch, dir, ec);  // fails only if a parallel check finished the same runner first
  fs::remove_all(scratch, ec);
  return runner;
}

// The last steps of both backends, once the learner's object is compiled: its machine code checked, its
// shared object linked, every symbol it needs provided, and the runner put beside it.
bool link_learner_code(const BuildConfig& config, const PuzzleSpec& puzzle, Backend backend,
                       const std::vector<fs::path>& libraries, const CommandLine& link, const fs::path& dir,
                       BuildSteps& steps, BuildInfo& info) {
  if (BuildInfo checked = check_object_code(dir / "learner.o"); !checked.ok)
    return steps.fail(std::move(checked.message));
  if (!steps.run(link))
    return steps.fail(explain_link_error(info.log, puzzle.signature).value_or("your file does not link"));
  const fs::path runner = runner_for(config, puzzle, backend, libraries);
  if (auto missing =
          unresolved_symbols(dir / "learner.so", runner.parent_path() / "exports", puzzle.signature))
    return steps.fail(std::move(*missing));
  std::error_code ec;
  fs::create_hard_link(runner, dir / "child", ec);
  if (ec) fs::copy_file(runner, dir / "child");
  return true;
}

// CUDA's front end starts compiling the file now, beside g++; what it rejects, a GPU build rejects,
// whatever g++ says (take_cuda_verdict).
std::optional<FrontEndCheck> start_cuda_rules(const BuildConfig& config, const PuzzleSource& source,
                                              FrontEndReport report, BuildInfo& info) {
  const auto front_end = cuda_front_end(config);
  if (!front_end) return std::nullopt;
  info.cuda_rules = front_end->name;
  std::optional<FrontEndCheck> check(std::in_place, config, *front_end, source, report);
  info.commands.push_back(check->command());
  return check;
}

// Waits for the front end: false, with its errors as the build's, if it rejects the file. The kernels'
// registers it reported are kept for the speed estimate.
bool take_cuda_verdict(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                       FrontEndCheck& check, BuildInfo& info) {
  FrontEndVerdict verdict = check.finish();
  if (!verdict.checked) info.cuda_rules.clear();
  if (verdict.errors) {
    info.ok = false;
    info.log = std::move(*verdict.errors);
    info.message = "your file does not compile for a GPU (" + info.cuda_rules + " rejects it: CUDA's rules)";
    return false;
  }
  if (!verdict.resource_report.empty())
    store_kernel_resources(config, puzzle, source, verdict.resource_report);
  return true;
}

bool build_with_gxx(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                    const std::vector<fs::path>& libraries, const fs::path& dir, BuildInfo& info) {
  BuildSteps steps(info);
  // Translates CUDA text into `to`; false (with the errors logged) if it cannot.
  const auto translate = [&](const std::string& text, const fs::path& from, const fs::path& to) {
    // With the speed estimate's counts of arithmetic: the same child runs the cases and the estimate.
    const auto translated = sim::translate_cuda(text, from.string(), true);
    for (const auto& error : translated.errors) info.log += error + "\n";
    if (!translated.errors.empty()) return false;
    fs::create_directories(to.parent_path());
    write_atomically(to, translated.code);
    return true;
  };
  // Local headers may hold kernels too: their translations go to the same place relative to the
  // translated file, where `#include "..."` looks first. The tree under `root` (the file's folder, or
  // the nearest folder above it that holds every local header, for a header in a sibling folder such as
  // ../common/) is mirrored under dir/tree/.
  const std::vector<LocalHeader> headers = local_headers(source);
  const auto outside = [](const fs::path& path, const fs::path& folder) {
    const fs::path relative = path.lexically_relative(folder);
    return relative.empty() || *relative.begin() == "..";
  };
  fs::path root = source.file.parent_path();
  for (const auto& header : headers) {
    while (root.has_relative_path() && outside(header.path, root)) root = root.parent_path();
  }
  const fs::path tree = dir / "tree";
  const fs::path cpp = (tree / source.file.parent_path().lexically_relative(root) / "learner.sim.cpp")
                           .lexically_normal(),
                 object = dir / "learner.o";
  if (!translate(source.text, source.file, cpp)) return steps.fail("your file does not compile");
  for (const auto& header : headers) {
    if (outside(header.path, root)) continue;  // no folder holds both: compiled as it is
    if (!translate(header.text, header.path, tree / header.path.lexically_relative(root)))
      return steps.fail("your file does not compile");
  }
  if (!steps.run(sim_compile_command(config, source.file, cpp, object)))
    return steps.fail("your file does not compile");
  return link_learner_code(
      config, puzzle, Backend::sim, libraries,
      sim_library_command(config, object, glue_library(config, puzzle.id), dir / "learner.so"), dir, steps,
      info);
}

bool build_for_gpu(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                   const std::vector<fs::path>& libraries, const fs::path& dir, BuildInfo& info) {
  BuildSteps steps(info);
  info.cuda_rules = "nvcc";  // the GPU build is nvcc's own
  // What the file or a header beside it includes (a version's ../common/hopper_ptx.cuh includes <cuda.h>).
  const auto includes = [&](const char* header) {
    if (source.text.find(header) != std::string::npos) return true;
    const auto headers = local_headers(source);
    return std::any_of(headers.begin(), headers.end(),
                       [&](const LocalHeader& h) { return h.text.find(header) != std::string::npos; });
  };
  const GpuLibraries needs{.cublas = includes("<cublas_v2.h>"), .driver = includes("<cuda.h>")};
  if (!steps.run(gpu_compile_command(config, source.file, dir / "learner.o")))
    return steps.fail("your file does not compile");
  return link_learner_code(config, puzzle, Backend::gpu, libraries,
                           gpu_library_command(config, dir / "learner.o", glue_library(config, puzzle.id),
                                               dir / "learner.so", needs),
                           dir, steps, info);
}

// Whether `dir` is a build still being made: a scratch directory whose process is alive. Another check
// running in parallel (ctest -j) must not lose its half-made build to our pruning.
bool build_in_progress(const fs::path& dir) {
  const std::string name = dir.filename().string();
  const size_t at = name.rfind(kScratchSuffix);
  if (at == std::string::npos) return false;
  const long pid = std::strtol(name.c_str() + at + std::strlen(kScratchSuffix), nullptr, 10);
  return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

}  // namespace

std::string child_key(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                      Backend backend) {
  build_missing_puzzle_parts(config, puzzle.id);
  std::vector<fs::path> libraries = child_libraries(config, backend, puzzle.id);
  libraries.push_back(glue_library(config, puzzle.id));
  return cache_key(config, source, backend, libraries);
}

// A simulator child handed over before CUDA's front end judged its file: the child's folder gets the
// verdict's file (kVerdictFile) once the front end accepts the file; a cached child without it is judged
// again.
struct PendingCudaRules {
  FrontEndCheck check;
  fs::path dir;
};

namespace {

constexpr const char* kVerdictFile = "cuda_rules";  // the front end's name, "" if none checked

}  // namespace

ChildBuild build_child(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                       Backend backend, CudaRules when, FrontEndReport report) {
  const auto started = std::chrono::steady_clock::now();
  const auto seconds_since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  if (backend == Backend::gpu) {
    require_tool(config.nvcc, "CUDA compiler (nvcc)");
  }
  require_tool(config.cxx, "C++ compiler");
  build_missing_puzzle_parts(config, puzzle.id);
  const auto libraries = child_libraries(config, backend, puzzle.id);

  ChildBuild build;
  // A NUL byte: an object file, an archive or an image saved under a .cu name, which no compiler should see.
  if (source.text.find('\0') != std::string::npos) {
    build.info.message = source.file.filename().string() + " is not a text file (it holds binary data): a " +
                         "puzzle file is CUDA source";
    build.info.seconds = seconds_since_start();
    return build;
  }
  const fs::path puzzle_dir = config.build_dir / "checks" / puzzle.slug;
  std::vector<fs::path> keyed = libraries;
  keyed.push_back(glue_library(config, puzzle.id));
  const fs::path dir = puzzle_dir / cache_key(config, source, backend, keyed);
  build.child = dir / "child";
  std::optional<FrontEndCheck> cuda_rules;
  if (fs::exists(build.child)) {
    fs::last_write_time(dir, fs::file_time_type::clock::now());  // most recently used: pruned last
    const auto verdict = read_text(dir / kVerdictFile);
    build.info = {.ok = true,
                  .cached = true,
                  .seconds = seconds_since_start(),
                  .log = read_text(dir / "build.log").value_or(""),
                  .cuda_rules = verdict.value_or("")};
    // Built, but not yet (or never) accepted by CUDA's front end: it judges the file again.
    if (!verdict) cuda_rules = start_cuda_rules(config, source, report, build.info);
  } else {
    // Built aside and renamed into place, so that a half-made child is never reused.
    const fs::path scratch = dir.string() + kScratchSuffix + unique_suffix();
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    bool ok = false;
    if (backend == Backend::gpu) {
      ok = build_for_gpu(config, puzzle, source, libraries, scratch, build.info);
    } else {
      cuda_rules = start_cuda_rules(config, source, report, build.info);
      ok = build_with_gxx(config, puzzle, source, libraries, scratch, build.info);
      // g++'s errors or not, the front end's are the ones a GPU build would show.
      if (!ok && cuda_rules) take_cuda_verdict(config, puzzle, source, *cuda_rules, build.info);
    }
    build.info.ok = ok;
    build.info.seconds = seconds_since_start();
    std::error_code ec;
    if (ok) {
      write_atomically(scratch / "build.log", build.info.log);
      if (!cuda_rules) write_atomically(scratch / kVerdictFile, build.info.cuda_rules);
      fs::rename(scratch, dir, ec);  // fails only if a parallel check finished the same build first
    }
    fs::remove_all(scratch, ec);
    if (!ok) return build;
    prune_old_builds(puzzle_dir);
  }
  if (cuda_rules) build.cuda_rules = std::make_shared<PendingCudaRules>(std::move(*cuda_rules), dir);
  if (when == CudaRules::before_the_run && build.cuda_rules) {
    build.info = settle_cuda_rules(config, puzzle, source, build);
    build.cuda_rules.reset();
    build.info.seconds = seconds_since_start();
  }
  return build;
}

BuildInfo settle_cuda_rules(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                            const ChildBuild& build) {
  BuildInfo info = build.info;
  if (!build.cuda_rules) return info;
  const auto started = std::chrono::steady_clock::now();
  if (take_cuda_verdict(config, puzzle, source, build.cuda_rules->check, info))
    write_atomically(build.cuda_rules->dir / kVerdictFile, info.cuda_rules);
  info.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return info;
}

// A learner's edits would otherwise pile up. Builds used in the last few minutes stay: a parallel check
// may be about to run the child it just found.
void prune_old_builds(const fs::path& puzzle_dir) {
  std::vector<std::pair<fs::file_time_type, fs::path>> builds;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(puzzle_dir, ec)) {
    if (entry.is_directory(ec) && !build_in_progress(entry.path()))
      builds.emplace_back(entry.last_write_time(ec), entry.path());
  }
  if (builds.size() <= kBuildsKeptPerPuzzle) return;
  std::sort(builds.begin(), builds.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const auto recent = fs::file_time_type::clock::now() - kRecentUse;
  for (size_t i = kBuildsKeptPerPuzzle; i < builds.size(); ++i) {
    if (builds[i].first < recent) fs::remove_all(builds[i].second, ec);
  }
}

}  // namespace puzzle::cli
