// CUDA's front end on the simulator's path (compile/cuda_front_end.hpp): which one a build uses, and, in
// the suite clang_front_end (its own CTest, where the build found clang), clang's verdict on every kernel
// in the tree against nvcc's.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <deque>
#include <future>
#include <regex>
#include <thread>

#include "compile/cuda_front_end.hpp"
#include "model/build_config.hpp"
#include "scoped_env.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using puzzle::cli::testing::ScopedEnv;
namespace fs = std::filesystem;

namespace {

fs::path stand_in_compiler(const fs::path& file) {
  write_atomically(file, "#!/bin/sh\nexit 0\n");
  chmod(file.c_str(), 0755);
  return file;
}

std::string chosen(const BuildConfig& config) {
  const auto front_end = cuda_front_end(config);
  return front_end ? front_end->name + " " + front_end->compiler.filename().string() : "none";
}

// A .cu file of the tree as CUDA's front ends see it, and whether nvcc rejects it (`expect-nvcc: error`).
struct TreeFile {
  fs::path file;
  bool nvcc_rejects = false;
  fs::path original_dir;  // a mutant's: where the headers its original includes lie
};

// The stubs, the solutions and the test kernels, each mutant written out (its original with the one
// line replaced, as tests/kernels/expect_check.cmake makes it) under `scratch`.
std::vector<TreeFile> tree_files(const fs::path& source_dir, const fs::path& scratch) {
  std::vector<fs::path> files;
  const auto add_folder = [&](const fs::path& folder, const std::regex& name) {
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (!entry.is_directory()) continue;
      for (const auto& file : fs::directory_iterator(entry.path())) {
        if (std::regex_match(file.path().filename().string(), name)) files.push_back(file.path());
      }
    }
  };
  add_folder(source_dir / "puzzles", std::regex(R"(\d\d_.*\.cu)"));
  add_folder(source_dir / "solutions", std::regex(R"(.*\.cu)"));
  add_folder(source_dir / "tests" / "kernels", std::regex(R"(.*\.cu)"));
  std::sort(files.begin(), files.end());

  static const std::regex mutant("\n// mutant-of: ([^\n]+)\n// replace: ([^\n]+)\n// with: ([^\n]*)\n");
  std::vector<TreeFile> tree;
  for (const fs::path& file : files) {
    const std::string text = read_text(file).value_or("");
    TreeFile entry{file, text.find("\n// expect-nvcc: error") != std::string::npos ||
                             text.starts_with("// expect-nvcc: error")};
    std::smatch m;
    if (std::regex_search(text, m, mutant)) {
      const fs::path original = source_dir / m[1].str();
      std::string code = read_text(original).value_or("");
      const size_t at = code.find(m[2].str());
      REQUIRE_MESSAGE(at != std::string::npos, file.string() << ": its line is not in " << original.string());
      code.replace(at, m[2].length(), m[3].str());
      entry.file = scratch / fs::relative(file, source_dir);
      entry.original_dir = original.parent_path();
      write_atomically(entry.file, code);
    }
    tree.push_back(std::move(entry));
  }
  return tree;
}

}  // namespace

TEST_CASE("the CUDA front end is nvcc, else clang, else none; PUZZLE_CUDA_FRONT_END picks one or none") {
  TempDir dir{"cli-front-end-choice-"};
  BuildConfig config = build_config();
  config.cuda_front_end_nvcc = stand_in_compiler(dir.path() / "nvcc");
  config.cuda_front_end_clang = stand_in_compiler(dir.path() / "clang++");
  {
    const ScopedEnv unset("PUZZLE_CUDA_FRONT_END", std::nullopt);
    CHECK(chosen(config) == "nvcc nvcc");
    BuildConfig without_nvcc = config;
    without_nvcc.cuda_front_end_nvcc = dir.path() / "missing-nvcc";  // configured, then uninstalled
    CHECK(chosen(without_nvcc) == "clang clang++");
    without_nvcc.cuda_front_end_clang.clear();
    CHECK(chosen(without_nvcc) == "none");
    CHECK(describe_cuda_front_end(without_nvcc).starts_with("none: neither nvcc nor clang"));
  }
  {
    const ScopedEnv clang("PUZZLE_CUDA_FRONT_END", "clang");
    CHECK(chosen(config) == "clang clang++");
    CHECK(describe_cuda_front_end(config).starts_with("clang's CUDA mode ("));
    BuildConfig without_clang = config;
    without_clang.cuda_front_end_clang.clear();
    CHECK(chosen(without_clang) == "none");  // not nvcc: the one asked for, or none
  }
  {
    const ScopedEnv nvcc("PUZZLE_CUDA_FRONT_END", "nvcc");
    CHECK(chosen(config) == "nvcc nvcc");
  }
  {
    const ScopedEnv none("PUZZLE_CUDA_FRONT_END", "none");
    CHECK(chosen(config) == "none");
    CHECK(describe_cuda_front_end(config).find("PUZZLE_CUDA_FRONT_END=none") != std::string::npos);
  }
  {
    const ScopedEnv typo("PUZZLE_CUDA_FRONT_END", "gcc");
    CHECK_THROWS_AS(cuda_front_end(config), UsageError);
  }
}

TEST_SUITE("clang_front_end") {
  // What nvcc 13 (-cubin, sm_90a, as the front end runs it) and a GPU build (nvcc -c) make of a few files,
  // measured, and what clang's CUDA mode must make of them.
  TEST_CASE("clang's CUDA mode judges as nvcc does where their rules differ") {
    const BuildConfig& config = build_config();
    REQUIRE_MESSAGE(!config.cuda_front_end_clang.empty(), "the build found no clang 14 or newer");
    const CudaFrontEnd clang{"clang", config.cuda_front_end_clang};
    TempDir dir{"cli-clang-rules-"};
    enum Verdict { accepted, rejected, unchecked };
    struct Row {
      const char* what;
      const char* code;
      Verdict nvcc;
    };
    const Row rows[] = {
        {"a helper without __device__",
         "float h(float v) { return v; }\n__global__ void k(float* y) { y[0] = h(1); }\n", rejected},
        {"a kernel without __global__", "void k(float* y) {}\nvoid f(float* y) { k<<<1, 1>>>(y); }\n",
         rejected},
        {"std::max in a kernel",
         "#include <algorithm>\n__global__ void k(float* y) { y[0] = std::max(y[0], 1.0f); }\n", rejected},
        {"a __shared__ initializer", "__global__ void k(float* y) { __shared__ float s = 1; y[0] = s; }\n",
         rejected},
        // nvcc warns (#20013-D, #20011-D) and builds them.
        {"std::max in a __host__ __device__ function",
         "#include <algorithm>\n__host__ __device__ float m(float a) { return std::max(a, 1.0f); }\n"
         "__global__ void k(float* y) { y[0] = m(y[0]); }\n",
         accepted},
        {"a host function called by a __host__ __device__ one",
         "float h(float v) { return v; }\n__host__ __device__ float hd(float v) { return h(v); }\n"
         "__global__ void k(float* y) { y[0] = hd(1); }\n",
         accepted},
        // nvcc leaves the variable uninitialized.
        {"a __shared__ variable whose type initializes its members",
         "struct P { float m = 0; };\n__global__ void k(float* y) { __shared__ P p[2], q; y[0] = p[1].m + "
         "q.m; }\n",
         accepted},
        {"a runtime call in a kernel (__cudart_builtin__)",
         "__global__ void k(float* y) { float* p; cudaMalloc(&p, 4); }\n", accepted},
        {"a __managed__ variable", "__managed__ float m;\n__global__ void k(float* y) { y[0] = m; }\n",
         accepted},
        {"<memory> and __noinline__",
         "#include <memory>\n__noinline__ __device__ float f(float v) { return v; }\n"
         "std::unique_ptr<float> p;\n__global__ void k(float* y) { y[0] = f(1); }\n",
         accepted},
        {"a library the project does not declare", "#include <cub/cub.cuh>\n", unchecked},
    };
    for (const Row& row : rows) {
      const fs::path file = dir.path() / "learner.cu";
      write_atomically(file, row.code);
      const FrontEndVerdict verdict = judge_front_end_run(
          clang,
          run_captured(cuda_front_end_command(config, clang, file, dir.path(), FrontEndReport::rules)));
      INFO(row.what, "\n", verdict.errors.value_or(""));
      CHECK(verdict.checked == (row.nvcc != unchecked));
      CHECK(verdict.errors.has_value() == (row.nvcc == rejected));
    }
  }

  TEST_CASE("clang's CUDA mode rejects the files nvcc rejects, and accepts every other file in the tree") {
    const BuildConfig& config = build_config();
    REQUIRE_MESSAGE(!config.cuda_front_end_clang.empty(), "the build found no clang 14 or newer");
    const CudaFrontEnd clang{"clang", config.cuda_front_end_clang};
    TempDir dir{"cli-clang-front-end-"};
    const std::vector<TreeFile> files = tree_files(config.source_dir, dir.path() / "mutants");
    REQUIRE(files.size() > 100);

    // About 0.2 s of CPU a file: as many at once as there are cores.
    const size_t at_once = std::max(2u, std::thread::hardware_concurrency());
    std::deque<std::future<FrontEndVerdict>> running;
    size_t judged = 0, rejected = 0;
    const auto judge_oldest = [&] {
      const TreeFile& f = files[judged++];
      const FrontEndVerdict verdict = running.front().get();
      running.pop_front();
      INFO(f.file.string());
      CHECK(verdict.checked);
      CHECK_MESSAGE(verdict.errors.has_value() == f.nvcc_rejects,
                    (f.nvcc_rejects ? "nvcc rejects it, clang accepts it"
                                    : "nvcc accepts it, clang rejects it:\n" + verdict.errors.value_or("")));
      // Its errors name the file, not a copy.
      if (verdict.errors) CHECK(verdict.errors->find(f.file.filename().string()) != std::string::npos);
      rejected += verdict.errors.has_value();
    };
    for (const TreeFile& f : files) {
      std::vector<std::string> argv =
          cuda_front_end_command(config, clang, f.file, dir.path(), FrontEndReport::rules);
      if (!f.original_dir.empty()) argv.insert(argv.end() - 1, {"-iquote", f.original_dir.string()});
      running.push_back(std::async(std::launch::async, [clang, argv = std::move(argv)] {
        return judge_front_end_run(clang, run_captured(argv));
      }));
      if (running.size() == at_once) judge_oldest();
    }
    while (!running.empty()) judge_oldest();
    MESSAGE(files.size() << " files, " << rejected << " rejected by both front ends");
  }
}
