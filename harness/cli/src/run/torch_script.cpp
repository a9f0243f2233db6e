#include "run/torch_script.hpp"

#include <cstdlib>
#include <fstream>
#include <thread>

#include "families/attention_family.hpp"
#include "protocol.hpp"
#include "report/text_format.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"
#include "support/temp_dir.hpp"

namespace puzzle::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kScriptPollInterval = std::chrono::milliseconds(50);
constexpr auto kScriptTermGrace = std::chrono::seconds(2);
constexpr size_t kReasonChars = 160;

// New lines of a file, from `offset` on (which moves past them): the complete ones while it is still being
// written, and the unfinished last one too once its writer has ended.
std::vector<std::string> new_lines(const std::filesystem::path& file, size_t& offset, bool writer_ended) {
  std::ifstream in(file, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (writer_ended && start < text.size()) {
    lines.push_back(text.substr(start));
    start = text.size();
  }
  offset += start;
  return lines;
}

// The last non-empty line of the script's stderr: a traceback's last line names the exception.
std::string last_words(const std::filesystem::path& file) {
  const std::string text = read_clipped(file, 0, 4096);
  const size_t end = text.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return "";
  const size_t newline = text.find_last_of('\n', end);
  const size_t start = newline == std::string::npos ? 0 : newline + 1;
  const std::string line = text.substr(start, end + 1 - start);
  return line.size() > kReasonChars ? line.substr(0, kReasonChars) + "..." : line;
}

}  // namespace

std::string torch_python() {
  const char* python = std::getenv("PUZZLE_PYTHON");
  return python && *python ? python : "python3";
}

std::string torch_op(const PuzzleSpec& spec) {
  static constexpr std::string_view kSixteenBit = "_16bit";
  std::string op = spec.judge;
  if (op.ends_with(kSixteenBit)) op.resize(op.size() - kSixteenBit.size());
  return op == "softmax" || op == "attention_forward" || op == "attention_backward" ? op : "";
}

nlohmann::json torch_request(const PuzzleSpec& spec, const std::vector<const TestCase*>& shapes) {
  nlohmann::json list = nlohmann::json::array();
  for (const TestCase* shape : shapes) {
    nlohmann::json entry = {{"name", shape->name}};
    for (const auto& [key, value] : shape->params) entry[key] = value;  // rows, cols; bh, n_q, n_k, d, causal
    if (spec.judge != "softmax") entry["scale"] = puzzles::attention::scale_of(shape->params);
    list.push_back(entry);
  }
  const protocol::Job timing;
  // The puzzle's op and dtype: a 16-bit attention puzzle is SDPA's forward or backward in that type.
  const std::string op = torch_op(spec);
  const Dtype dtype = spec.inputs.empty() ? Dtype::f32 : spec.inputs[0].dtype;
  const char* torch_dtype = dtype == Dtype::bf16 ? "bfloat16" : dtype == Dtype::f16 ? "float16" : "float32";
  return {{"op", op},
          {"dtype", torch_dtype},
          {"shapes", list},
          {"warmup", timing.warmup},
          {"reps", timing.reps},
          {"budget_ms", protocol::kTimingBudgetMs}};
}

std::string run_torch_script(const std::filesystem::path& script, const nlohmann::json& request,
                             std::chrono::milliseconds line_timeout,
                             const std::function<void(const std::string&)>& line_printed) {
  TempDir work("puzzle-torch-");
  const auto out = work.path() / "stdout", err = work.path() / "stderr";
  const std::string python = torch_python(), name = script.filename().string();
  std::optional<GroupProcess> process;
  try {
    process.emplace(std::vector<std::string>{python, script.string()}, out, err, request.dump() + "\n");
  } catch (const std::exception& e) {
    return e.what();  // "cannot run python3: No such file or directory"
  }
  size_t offset = 0;
  auto last_line = Clock::now();
  for (;;) {
    const auto exited = process->poll();
    for (const std::string& line : new_lines(out, offset, exited.has_value())) {  // after poll: all of them
      last_line = Clock::now();
      line_printed(line);
    }
    if (exited) {
      if (exited->ok()) return "";
      const std::string words = last_words(err);
      return name + " ended with " + exited->describe() + (words.empty() ? "" : ": " + words);
    }
    if (Clock::now() - last_line > line_timeout) {
      process->stop(kScriptTermGrace);
      return name + " did not answer in " + format_seconds(static_cast<double>(line_timeout.count()) / 1000);
    }
    std::this_thread::sleep_for(kScriptPollInterval);
  }
}

}  // namespace puzzle::cli
