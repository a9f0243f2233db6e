// The whole translation: the #line header, line fidelity on realistic files, and (when the
// simulator's CUDA headers exist) that g++ accepts the result and reports the learner's lines.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "translate_test_support.hpp"

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

struct CommandResult {
  int status;
  std::string output;  // stdout and stderr
};

CommandResult run(const std::string& command) {
  CommandResult result{-1, ""};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe);
  std::array<char, 4096> buffer;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) result.output.append(buffer.data(), n);
  result.status = pclose(pipe);
  return result;
}

bool have_simulator_headers() {
  return fs::exists(fs::path(SIM_INCLUDE_DIR) / "cuda_runtime.h");
}

// Translates `source` as the file at `path`, writes the result next to the build, and runs g++ on it.
CommandResult compile_translation(const std::string& source, const fs::path& path) {
  sim::TranslateResult r = sim::translate_cuda(source, path.string());
  REQUIRE(r.errors.empty());
  fs::path out = fs::temp_directory_path() / ("translate_tests_" + path.stem().string() + ".sim.cpp");
  std::ofstream(out, std::ios::binary) << r.code;
  return run(std::string(HOST_CXX) + " -std=c++20 -fsyntax-only -DPUZZLE_SIM -I" + SIM_INCLUDE_DIR +
             " -include cuda_runtime.h " + out.string());
}

}  // namespace

TEST_CASE("the output starts with a #line directive naming the learner's file") {
  sim::TranslateResult r = sim::translate_cuda("int x;\n", "dir/my \"odd\\file\".cu");
  CHECK(r.code == "#line 1 \"dir/my \\\"odd\\\\file\\\".cu\"\nint x;\n");
  CHECK(r.errors.empty());
}

TEST_CASE("translating a realistic softmax file keeps every line where it was") {
  const std::string source = read_file(fs::path(TRANSLATE_TEST_DATA_DIR) / "softmax.cu");
  const std::string out = translated(source);
  CHECK(count_newlines(out) == count_newlines(source));
  std::vector<std::string> in_lines = split_lines(source), out_lines = split_lines(out);
  REQUIRE(in_lines.size() == out_lines.size());
  int rewritten = 0;
  for (size_t i = 0; i < in_lines.size(); ++i) {
    if (in_lines[i] == out_lines[i]) continue;
    INFO("line " << i + 1 << ":\n" << in_lines[i] << "\n" << out_lines[i]);
    // A rewritten line starts a launch or a __shared__ declaration (a launch's arguments stay as they are).
    CHECK(out_lines[i].find("::sim::") != std::string::npos);
    ++rewritten;
  }
  CHECK(rewritten == 6);  // 4 __shared__ declarations, 2 launches
  CHECK(out.find("__shared__ float x[4]; or\n// kernel<<<grid, block>>>(args) must") != std::string::npos);
}

TEST_CASE("translated sample files compile with g++ against the simulator's headers") {
  if (!have_simulator_headers()) {
    MESSAGE("skipped: " SIM_INCLUDE_DIR "/cuda_runtime.h does not exist yet");
    return;
  }
  for (const std::string name : {"softmax.cu", "namespace_shared.cu"}) {
    CAPTURE(name);
    const fs::path path = fs::path(TRANSLATE_TEST_DATA_DIR) / name;
    const std::string source = read_file(path);
    CommandResult clean = compile_translation(source, path);
    CHECK_MESSAGE(clean.status == 0, clean.output);

    // An error after every rewrite must be reported at its line of the learner's file.
    const int last_line = static_cast<int>(count_newlines(source)) + 1;
    CommandResult broken = compile_translation(source + "int broken = undeclared_name;\n", path);
    CHECK(broken.status != 0);
    CHECK_MESSAGE(
        broken.output.find(path.string() + ":" + std::to_string(last_line) + ":") != std::string::npos,
        broken.output);
  }
}
