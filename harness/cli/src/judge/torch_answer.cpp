#include "judge/torch_answer.hpp"

#include <cmath>

#include "judge/perf_figures.hpp"

namespace puzzle::cli {
namespace {

using nlohmann::json;

constexpr size_t kQuotedChars = 80;
constexpr const char* kOutOfMemory = "out of memory";  // as our kernels' problem: the chart marks it OOM

std::string clipped(const std::string& text) {
  return text.size() > kQuotedChars ? text.substr(0, kQuotedChars) + "..." : text;
}

bool is_text(const json& line, const char* key) {
  return line.contains(key) && line[key].is_string();
}

}  // namespace

TorchAnswer::TorchAnswer(const PuzzleSpec& spec, std::vector<const TestCase*> shapes)
    : spec_(spec), shapes_(std::move(shapes)), timed_(shapes_.size(), false) {}

std::optional<size_t> TorchAnswer::read_line(const std::string& line) {
  const json parsed = json::parse(line, nullptr, false);
  if (!named_) {
    read_first_line(parsed, line);
    return std::nullopt;
  }
  if (!parsed.is_object() || !columns_.absent.empty()) return std::nullopt;
  return read_shape_line(parsed);
}

void TorchAnswer::read_first_line(const json& line, const std::string& text) {
  if (!line.is_object()) {
    if (unreadable_.empty() && !text.empty()) unreadable_ = clipped(text);
    return;
  }
  if (is_text(line, "unavailable")) {
    columns_.absent = line["unavailable"].get<std::string>();
    named_ = true;
    return;
  }
  if (is_text(line, "error")) {
    refusal_ = line["error"].get<std::string>();
    return;
  }
  const bool columns_named = is_text(line, "torch") && line.contains("columns") &&
                             line["columns"].is_array() && !line["columns"].empty();
  if (!columns_named) {
    if (unreadable_.empty()) unreadable_ = clipped(text);
    return;
  }
  for (const json& label : line["columns"]) {
    if (!label.is_string()) {
      if (unreadable_.empty()) unreadable_ = clipped(text);
      columns_.columns.clear();
      return;
    }
    columns_.columns.push_back(
        {.label = label.get<std::string>(), .timings = std::vector<BenchTiming>(shapes_.size())});
  }
  columns_.version = line["torch"].get<std::string>();
  columns_.device = is_text(line, "device") ? line["device"].get<std::string>() : "";
  named_ = true;
}

std::optional<size_t> TorchAnswer::read_shape_line(const json& line) {
  if (!is_text(line, "shape") || !line.contains("results") || !line["results"].is_object())
    return std::nullopt;
  const std::string name = line["shape"].get<std::string>();
  for (size_t s = 0; s < shapes_.size(); ++s) {
    if (shapes_[s]->name != name) continue;
    for (TorchColumn& column : columns_.columns) {
      const auto result = line["results"].find(column.label);
      column.timings[s] = timing_of(result == line["results"].end() ? json() : *result, *shapes_[s]);
    }
    timed_[s] = true;
    return s;
  }
  return std::nullopt;
}

BenchTiming TorchAnswer::timing_of(const json& result, const TestCase& shape) const {
  if (result.is_object() && result.contains("ms") && result["ms"].is_number()) {
    const double ms = result["ms"].get<double>();
    if (std::isfinite(ms) && ms > 0) return {.time_ms = ms, .rate = bench_rate(spec_, shape.params, ms)};
  }
  if (result.is_object() && is_text(result, "error")) {
    const std::string error = result["error"].get<std::string>();
    return {.problem = error == kOutOfMemory ? error : "n/a: " + error};
  }
  return {.problem = "torch_bench.py gave no figure"};
}

TorchColumns TorchAnswer::finish(const std::string& failure) const {
  TorchColumns done = columns_;
  if (!named_) {
    done.columns.clear();
    done.absent = !refusal_.empty()      ? "torch_bench.py refused the request: " + refusal_
                  : !failure.empty()     ? failure
                  : !unreadable_.empty() ? "torch_bench.py answered something else than JSON: " + unreadable_
                                         : "torch_bench.py answered nothing";
    return done;
  }
  for (TorchColumn& column : done.columns) {
    for (size_t s = 0; s < shapes_.size(); ++s) {
      if (!timed_[s])
        column.timings[s] = {.problem = failure.empty() ? "torch_bench.py gave no figure" : failure};
    }
  }
  return done;
}

}  // namespace puzzle::cli
