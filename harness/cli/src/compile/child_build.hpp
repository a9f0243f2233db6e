// The build driver: a puzzle file -> a child program, cached under build/checks/<slug>/.
#pragma once
#include <filesystem>
#include <memory>

#include "compile/cuda_front_end.hpp"
#include "model/build_config.hpp"
#include "model/check_report.hpp"
#include "model/puzzle_source.hpp"

namespace puzzle::cli {

struct PendingCudaRules;  // child_build.cpp

struct ChildBuild {
  BuildInfo info;  // ok == false: the file did not compile or link, or was refused (info says why)
  // The program, when info.ok: the puzzle's runner, with the learner's code beside it as learner.so,
  // which it loads once it has its session key (`child WORKDIR LEARNER.so`; build_commands.hpp).
  std::filesystem::path child;
  // CudaRules::beside_the_run: CUDA's front end, still compiling the file (settle_cuda_rules waits for it).
  std::shared_ptr<PendingCudaRules> cuda_rules;
};

// When a simulator build waits for CUDA's front end, which compiles the file beside g++ and takes longer
// (nvcc: 0.8 s of a check's 2 on puzzle 1): before handing the child over, or while the child runs.
enum class CudaRules { before_the_run, beside_the_run };

// What a child built from `source` depends on: the source's text, path and local headers, the tools and
// flags, and the harness libraries. A time measured with that child holds while the key does.
std::string child_key(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                      Backend backend);

// Reuses the child built earlier from the same source text, flags and libraries. Compile and link errors
// come back in the result; EnvironmentError when a compiler or a harness library is missing. `report`:
// whether a simulator build's nvcc front end also reports the kernels' registers for the speed estimate
// (kept in the build cache, kernel_resources.hpp), or only judges the file, in less time. Which one does
// not change the verdict, so it is not part of the cache key.
ChildBuild build_child(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                       Backend backend, CudaRules when = CudaRules::before_the_run,
                       FrontEndReport report = FrontEndReport::rules_and_registers);

// The build's info once CUDA's front end has judged the file (waits for it): ok == false, with the front
// end's errors as the build's, if it rejects the file; then the child's results mean nothing. `build`'s
// own info when nothing was pending.
BuildInfo settle_cuda_rules(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                            const ChildBuild& build);

// Removes a puzzle's least recently used builds beyond the 8 newest, but none used in the last 10 minutes
// and none still being made by a running process (checks may run in parallel). build_child calls it.
void prune_old_builds(const std::filesystem::path& puzzle_dir);

}  // namespace puzzle::cli
