#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "compile/child_build.hpp"
#include "compile/cuda_front_end.hpp"
#include "compile/kernel_resources.hpp"
#include "compile/link_errors.hpp"
#include "model/build_config.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

namespace {

// The real tools and libraries, but children built under a directory of the test's own.
// A header with a kernel that uses shared memory: the simulator runs it only once translated.
constexpr const char* kStagedCopyHeader =
    "#pragma once\n"
    "__global__ void staged_copy(const float* x, float* y, int n) {\n"
    "  __shared__ float staged[256];\n"
    "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) staged[threadIdx.x] = x[i];\n"
    "  __syncthreads();\n"
    "  if (i < n) y[i] = staged[threadIdx.x];\n"
    "}\n"
    "inline void launch_copy(const float* x, float* y, int n) {\n"
    "  staged_copy<<<(n + 255) / 256, 256>>>(x, y, n);\n"
    "}\n";

struct BuildFixture {
  TempDir dir{"cli-build-test-"};
  BuildConfig config = [this] {
    BuildConfig c = build_config();
    c.build_dir = dir.path();
    // g++'s build alone, whose messages these tests read; CUDA's front ends have tests of their own below.
    c.cuda_front_end_nvcc.clear();
    c.cuda_front_end_clang.clear();
    return c;
  }();
  const puzzle::PuzzleSpec& spec = lookup_puzzle("1");

  // `text`, saved as the learner's file.
  PuzzleSource source(const std::string& text) {
    const auto file = dir.path() / "learner.cu";
    write_atomically(file, text);
    return load_source(spec, SourceKind::file, config.source_dir, file);
  }
  ChildBuild build(const std::string& text) { return build_child(config, spec, source(text), Backend::sim); }
  // A launcher of kernel k(float* y), for the files below.
  std::string launcher() const {
    return "void " + function_name(spec.signature) +
           "(const float* x, float* y, int rows, int cols) { k<<<1, 1>>>(y); }\n";
  }
};

// A kernel calling a helper without __device__ (CUDA's front ends reject it; g++ builds it), and with it.
constexpr const char* kHelperWithoutDevice =
    "float half(float v) { return v / 2; }  // no __device__\n"
    "__global__ void k(float* y) { y[0] = half(1.0f); }\n";
constexpr const char* kHelperWithDevice =
    "__device__ float half(float v) { return v / 2; }\n"
    "__global__ void k(float* y) { y[0] = half(1.0f); }\n";

}  // namespace

TEST_CASE("a syntax error is a compile error whose message names the learner's file and line") {
  BuildFixture f;
  const ChildBuild b = f.build(
      "// line 1\n"
      "__global__ void k(float* y) {\n"
      "  int a = ;\n"
      "}\n");
  CHECK_FALSE(b.info.ok);
  CHECK(b.info.message == "your file does not compile");
  CHECK(b.info.log.find((f.dir.path() / "learner.cu").string() + ":3:") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(b.child));
}

TEST_CASE("a launcher with the wrong parameter types: 'your file must define <signature>'") {
  BuildFixture f;
  const ChildBuild b = f.build(
      "__global__ void k(float* y) { y[threadIdx.x] = 0; }\n"
      "void " +
      function_name(f.spec.signature) + "(float* y, int rows) { k<<<1, 1>>>(y); }\n");
  CHECK_FALSE(b.info.ok);
  CHECK(b.info.message.find("your file must define " + f.spec.signature) == 0);
}

TEST_CASE("the reference solution builds once, then the build is reused") {
  BuildFixture f;
  const auto solution = read_text(solution_ladder(f.spec, f.config.source_dir).front());
  REQUIRE(solution);
  const ChildBuild first = f.build(*solution);
  INFO(first.info.log);
  REQUIRE(first.info.ok);
  CHECK_FALSE(first.info.cached);
  CHECK(std::filesystem::exists(first.child));
  const ChildBuild second = f.build(*solution);
  CHECK(second.info.ok);
  CHECK(second.info.cached);
  CHECK(second.child == first.child);
  const ChildBuild edited = f.build(*solution + "\n// edited\n");
  CHECK(edited.info.ok);
  CHECK_FALSE(edited.info.cached);
  CHECK(edited.child != first.child);
}

TEST_CASE("the child key names the build's folder and changes with a rebuilt harness library") {
  // Solution timings are cached under this key: a harness that times differently must not reuse them.
  BuildFixture f;
  const auto file = f.dir.path() / "learner.cu";
  write_atomically(file, *read_text(solution_ladder(f.spec, f.config.source_dir).front()));
  const PuzzleSource source = load_source(f.spec, SourceKind::file, f.config.source_dir, file);
  const ChildBuild built = build_child(f.config, f.spec, source, Backend::sim);
  REQUIRE(built.info.ok);
  const std::string key = child_key(f.config, f.spec, source, Backend::sim);
  CHECK(built.child.parent_path().filename() == key);

  // A copy of the core library, so that the real build's stays untouched, then "rebuilt" (newer mtime).
  const auto copy = f.dir.path() / "libpuzzle_core.a";
  std::filesystem::copy_file(f.config.libraries.at("puzzle_core"), copy);
  f.config.libraries["puzzle_core"] = copy;
  const std::string with_copy = child_key(f.config, f.spec, source, Backend::sim);
  CHECK(with_copy != key);
  std::filesystem::last_write_time(copy, std::filesystem::last_write_time(copy) + std::chrono::seconds(5));
  CHECK(child_key(f.config, f.spec, source, Backend::sim) != with_copy);
}

TEST_CASE(
    "the simulator's headers come precompiled; a file that includes them builds with or without the .gch") {
  BuildFixture f;
  REQUIRE(std::filesystem::exists(f.config.sim_pch_dir / "cuda_runtime.h.gch"));
  const auto solution = read_text(solution_ladder(f.spec, f.config.source_dir).front());
  REQUIRE(solution);
  // The precompiled header stands for the first include; the file's own includes must still resolve.
  const std::string text = "#include <cuda_runtime.h>\n#include <cuda_bf16.h>\n" + *solution;
  const ChildBuild with_pch = f.build(text);
  INFO(with_pch.info.log);
  REQUIRE(with_pch.info.ok);
  const auto compile = std::find_if(with_pch.info.commands.begin(), with_pch.info.commands.end(),
                                    [](const std::string& c) { return c.find(" -c ") != std::string::npos; });
  REQUIRE(compile != with_pch.info.commands.end());
  const auto pch_at = compile->find("-I" + f.config.sim_pch_dir.string() + " ");
  REQUIRE(pch_at != std::string::npos);
  CHECK(pch_at < compile->find("-I" + f.config.sim_include_dir.string() + " "));

  // Its folder without the .gch (a build that has not made it yet): the forwarding header alone.
  const auto pch = f.dir.path() / "pch";
  std::filesystem::create_directories(pch);
  std::filesystem::copy_file(f.config.sim_pch_dir / "cuda_runtime.h", pch / "cuda_runtime.h");
  f.config.sim_pch_dir = pch;
  const ChildBuild without = f.build(text);
  INFO(without.info.log);
  CHECK(without.info.ok);
  CHECK_FALSE(without.info.cached);
  // A (re)made .gch: the simulator's headers may have changed, so the child is built again.
  std::filesystem::copy_file(build_config().sim_pch_dir / "cuda_runtime.h.gch", pch / "cuda_runtime.h.gch");
  const ChildBuild remade = f.build(text);
  CHECK(remade.info.ok);
  CHECK_FALSE(remade.info.cached);
}

TEST_CASE("editing a header the file includes with quotes rebuilds the child") {
  BuildFixture f;
  const auto solution = read_text(solution_ladder(f.spec, f.config.source_dir).front());
  REQUIRE(solution);
  write_atomically(f.dir.path() / "helpers.cuh", "// version 1\n");
  const std::string text = "#include \"helpers.cuh\"\n" + *solution;
  const ChildBuild first = f.build(text);
  INFO(first.info.log);
  REQUIRE(first.info.ok);
  CHECK(f.build(text).info.cached);
  write_atomically(f.dir.path() / "helpers.cuh", "// version 2\n");
  const ChildBuild edited = f.build(text);
  CHECK(edited.info.ok);
  CHECK_FALSE(edited.info.cached);
  CHECK(edited.child != first.child);
}

TEST_CASE("a header beside the file may hold kernels: its shared memory and launches are translated too") {
  BuildFixture f;
  const std::string kernels = kStagedCopyHeader;
  write_atomically(f.dir.path() / "kernels.cuh", kernels);
  const std::string text =
      "#include \"kernels.cuh\"\nvoid " + function_name(f.spec.signature) +
      "(const float* x, float* y, int rows, int cols) { launch_copy(x, y, rows * cols); }\n";
  const ChildBuild built = f.build(text);
  INFO(built.info.log);
  CHECK(built.info.ok);

  write_atomically(f.dir.path() / "kernels.cuh", kernels + "int broken = ;\n");
  const ChildBuild broken = f.build(text);
  CHECK_FALSE(broken.info.ok);
  CHECK(broken.info.log.find((f.dir.path() / "kernels.cuh").string() + ":12:") != std::string::npos);
}

TEST_CASE("a header in a sibling folder is translated for the simulator too") {
  // Puzzle 4's version 2 includes ../common/split_long_rows.cuh, whose kernels use shared memory: only a
  // translated copy runs them on the simulator.
  BuildFixture f;
  write_atomically(f.dir.path() / "shared" / "kernels.cuh", kStagedCopyHeader);
  const auto file = f.dir.path() / "solutions" / "2_staged_copy.cu";
  write_atomically(
      file, "#include \"../shared/kernels.cuh\"\nvoid " + function_name(f.spec.signature) +
                "(const float* x, float* y, int rows, int cols) { launch_copy(x, y, rows * cols); }\n");
  const ChildBuild built = build_child(
      f.config, f.spec, load_source(f.spec, SourceKind::file, f.config.source_dir, file), Backend::sim);
  INFO(built.info.log);
  CHECK(built.info.ok);
}

TEST_CASE("the solution ladder is found in the puzzle's solutions folder, by version, the clear one first") {
  TempDir dir{"cli-ladder-test-"};
  const puzzle::PuzzleSpec& spec = lookup_puzzle("1");
  const auto folder = dir.path() / puzzle::solutions_folder(spec);
  for (const char* name : {"10_tenth.cu", "2_second.cu", "1_clear.cu", "helpers.cuh", "notes.md", "x_1.cu"})
    write_atomically(folder / name, "// a version\n");
  const auto ladder = solution_ladder(spec, dir.path());
  REQUIRE(ladder.size() == 3);
  CHECK(ladder[0].filename() == "1_clear.cu");
  CHECK(ladder[1].filename() == "2_second.cu");
  CHECK(ladder[2].filename() == "10_tenth.cu");
  CHECK(load_source(spec, SourceKind::solution, dir.path()).file == ladder.front());
  CHECK(solution_ladder(lookup_puzzle("2"), dir.path()).empty());
  CHECK_THROWS_AS(load_source(lookup_puzzle("2"), SourceKind::solution, dir.path()), UsageError);
}

TEST_CASE("pruning keeps the newest builds, recent ones and builds still being made by a live process") {
  namespace fs = std::filesystem;
  TempDir dir{"cli-prune-test-"};
  const auto hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  const auto make = [&](const std::string& name, fs::file_time_type when) {
    fs::create_directories(dir.path() / name);
    fs::last_write_time(dir.path() / name, when);
  };
  for (int i = 0; i < 10; ++i) make("sim-old" + std::to_string(i), hour_ago + std::chrono::seconds(i));
  make("sim-recent", fs::file_time_type::clock::now());
  make("sim-making.tmp-" + std::to_string(getpid()), hour_ago - std::chrono::hours(1));  // this process: live
  make("sim-dead.tmp-999999999", hour_ago - std::chrono::hours(1));  // no such process: a leftover

  prune_old_builds(dir.path());

  CHECK(fs::exists(dir.path() / "sim-recent"));
  CHECK(fs::exists(dir.path() / ("sim-making.tmp-" + std::to_string(getpid()))));
  CHECK_FALSE(fs::exists(dir.path() / "sim-dead.tmp-999999999"));
  // 8 kept of the 11 finished builds and the leftover: the recent one and the 7 newest old ones.
  for (int i = 0; i < 3; ++i) CHECK_FALSE(fs::exists(dir.path() / ("sim-old" + std::to_string(i))));
  for (int i = 3; i < 10; ++i) CHECK(fs::exists(dir.path() / ("sim-old" + std::to_string(i))));
}

TEST_CASE("CUDA's front end compiles every simulator build too: what nvcc rejects does not build") {
  BuildFixture f;
  f.config.cuda_front_end_nvcc = build_config().cuda_front_end_nvcc;
  if (f.config.cuda_front_end_nvcc.empty()) return;  // no nvcc on this machine
  const ChildBuild rejected = f.build(kHelperWithoutDevice + f.launcher());
  CHECK_FALSE(rejected.info.ok);
  CHECK(rejected.info.message == "your file does not compile for a GPU (nvcc rejects it: CUDA's rules)");
  CHECK(rejected.info.log.find("learner.cu(2): error: calling a __host__ function") != std::string::npos);

  const ChildBuild accepted = f.build(kHelperWithDevice + f.launcher());
  INFO(accepted.info.log);
  CHECK(accepted.info.ok);
  CHECK(accepted.info.cuda_rules == "nvcc");
}

TEST_CASE(
    "nvcc judging CUDA's rules alone compiles at a lower level, rejects as before and leaves the registers "
    "to "
    "the speed estimate's compile") {
  BuildFixture f;
  f.config.cuda_front_end_nvcc = build_config().cuda_front_end_nvcc;
  if (f.config.cuda_front_end_nvcc.empty()) return;  // no nvcc on this machine
  const CudaFrontEnd nvcc{"nvcc", f.config.cuda_front_end_nvcc};
  const auto has = [](const std::vector<std::string>& argv, const std::string& flag) {
    return std::find(argv.begin(), argv.end(), flag) != argv.end();
  };
  const auto rules = cuda_front_end_command(f.config, nvcc, "k.cu", f.dir.path(), FrontEndReport::rules);
  CHECK(has(rules, "-O1"));
  CHECK_FALSE(has(rules, "-v"));
  CHECK(has(cuda_front_end_command(f.config, nvcc, "k.cu", f.dir.path(), FrontEndReport::rules_and_registers),
            "-v"));
  // A branch for a newer GPU (Blackwell's tcgen05, unknown to sm_90a's assembler) behind a false constant:
  // the GPU build drops it before ptxas, and so must the rules' compile (cicc -O0 would not).
  const std::filesystem::path newer = f.dir.path() / "newer_gpu.cu";
  write_atomically(newer,
                   "__global__ void k(float* y) {\n"
                   "  constexpr bool kBlackwell = false;\n"
                   "  if (kBlackwell) asm volatile(\"tcgen05.fence::before_thread_sync;\");\n"
                   "  y[0] = 1.0f;\n"
                   "}\n");
  for (const FrontEndReport report : {FrontEndReport::rules, FrontEndReport::rules_and_registers}) {
    const FrontEndVerdict verdict = judge_front_end_run(
        nvcc, run_captured(cuda_front_end_command(f.config, nvcc, newer, f.dir.path(), report)));
    INFO(verdict.errors.value_or(""));
    CHECK_FALSE(verdict.errors.has_value());
  }

  const auto build = [&](const std::string& text) {
    return build_child(f.config, f.spec, f.source(text), Backend::sim, CudaRules::before_the_run,
                       FrontEndReport::rules);
  };
  CHECK(build(kHelperWithoutDevice + f.launcher()).info.message ==
        "your file does not compile for a GPU (nvcc rejects it: CUDA's rules)");
  // nvcc warns of the unused variable: output, but no register report, so none may be kept for the file.
  const std::string warned = "__global__ void k(float* y) { int unused; y[0] = 1.0f; }\n" + f.launcher();
  const ChildBuild built = build(warned);
  INFO(built.info.log);
  REQUIRE(built.info.ok);
  const auto resources = kernel_resources(f.config, f.spec, f.source(warned));
  REQUIRE(resources.contains("k"));
  CHECK(resources.at("k").registers > 0);
}

TEST_CASE(
    "where nvcc is not installed clang's CUDA mode compiles every simulator build: what it rejects "
    "does not build, and the error names the learner's file and line") {
  BuildFixture f;
  f.config.cuda_front_end_clang = build_config().cuda_front_end_clang;
  if (f.config.cuda_front_end_clang.empty()) return;  // no clang on this machine
  const std::string launcher = f.launcher();
  const ChildBuild rejected = f.build(kHelperWithoutDevice + launcher);
  CHECK_FALSE(rejected.info.ok);
  CHECK(rejected.info.message == "your file does not compile for a GPU (clang rejects it: CUDA's rules)");
  CHECK(rejected.info.log.find("learner.cu:2:38: error: no matching function for call to 'half'") !=
        std::string::npos);

  // A __shared__ variable whose type initializes its members: nvcc leaves it uninitialized, clang refuses
  // it; the front end follows nvcc, unless an initializer is written out.
  const std::string shared_pair = "struct Pair { float m = 0.0f; };\n__global__ void k(float* y) {\n";
  const ChildBuild accepted =
      f.build(shared_pair + "  __shared__ Pair p[2];\n  y[0] = p[0].m;\n}\n" + launcher);
  INFO(accepted.info.log);
  CHECK(accepted.info.ok);
  CHECK(accepted.info.cuda_rules == "clang");
  const ChildBuild initialized =
      f.build(shared_pair + "  __shared__ Pair p{};\n  y[0] = p.m;\n}\n" + launcher);
  CHECK_FALSE(initialized.info.ok);
  CHECK(initialized.info.log.find("learner.cu:3:") != std::string::npos);

  // A header the project's declarations lack: no verdict (the simulator's build has its own message).
  const ChildBuild library = f.build("#include <cub/cub.cuh>\n" + launcher);
  CHECK_FALSE(library.info.ok);
  CHECK(library.info.cuda_rules.empty());
  CHECK(library.info.log.find("does not model this library") != std::string::npos);
}

TEST_CASE(
    "beside the run, the child comes before CUDA's verdict; a file the front end rejected is judged again "
    "when built again, one it accepted is not") {
  BuildFixture f;
  f.config.cuda_front_end_nvcc = build_config().cuda_front_end_nvcc;
  f.config.cuda_front_end_clang = build_config().cuda_front_end_clang;
  if (!cuda_front_end(f.config)) return;  // neither nvcc nor clang on this machine
  const PuzzleSource no_device = f.source(kHelperWithoutDevice + f.launcher());
  const ChildBuild first = build_child(f.config, f.spec, no_device, Backend::sim, CudaRules::beside_the_run);
  CHECK(first.info.ok);  // g++'s build: the child may run
  REQUIRE(first.cuda_rules);
  CHECK(std::filesystem::exists(first.child));
  const BuildInfo verdict = settle_cuda_rules(f.config, f.spec, no_device, first);
  CHECK_FALSE(verdict.ok);
  CHECK(verdict.message.starts_with("your file does not compile for a GPU"));
  const ChildBuild again = build_child(f.config, f.spec, no_device, Backend::sim);
  CHECK(again.info.cached);  // g++'s child is reused, the front end's acceptance never was
  CHECK_FALSE(again.info.ok);
  CHECK(again.info.message == verdict.message);

  const PuzzleSource with_device = f.source(kHelperWithDevice + f.launcher());
  const ChildBuild accepted =
      build_child(f.config, f.spec, with_device, Backend::sim, CudaRules::beside_the_run);
  REQUIRE(accepted.cuda_rules);
  INFO(accepted.info.log);
  CHECK(settle_cuda_rules(f.config, f.spec, with_device, accepted).ok);
  const ChildBuild reused =
      build_child(f.config, f.spec, with_device, Backend::sim, CudaRules::beside_the_run);
  CHECK(reused.info.cached);
  CHECK(reused.info.ok);
  CHECK_FALSE(reused.cuda_rules);  // its verdict was kept with it
  CHECK(reused.info.cuda_rules == cuda_front_end(f.config)->name);
}

TEST_CASE("without a CUDA front end a simulator build says it was not checked against CUDA's rules") {
  BuildFixture f;
  const ChildBuild b = f.build("float half(float v) { return v / 2; }\nvoid " +
                               function_name(f.spec.signature) + "(const float*, float*, int, int) {}\n");
  INFO(b.info.log);
  CHECK(b.info.ok);
  CHECK(b.info.cuda_rules.empty());
}
