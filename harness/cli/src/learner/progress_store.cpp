#include "learner/progress_store.hpp"

#include <algorithm>

#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

using nlohmann::json;

std::optional<double> number_at(const json& entry, const char* key) {
  if (!entry.contains(key) || !entry[key].is_number()) return std::nullopt;
  return entry[key].get<double>();
}

// The file may be edited by hand: a value of the wrong type reads as absent instead of throwing.
int hint_level_at(const json& entry) {
  const auto it = entry.find("hint_level");
  return it != entry.end() && it->is_number_integer() ? it->get<int>() : 0;
}

std::string text_at(const json& entry, const char* key) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : "";
}

void keep_best(json& entry, const char* key, std::optional<double> figure) {
  if (!figure) return;
  entry[key] = std::max(*figure, number_at(entry, key).value_or(*figure));
}

}  // namespace

std::filesystem::path progress_file(const std::filesystem::path& source_dir) {
  return source_dir / ".puzzle" / "progress.json";
}

ProgressStore::ProgressStore(std::filesystem::path file) : file_(std::move(file)) {
  data_ = json::parse(read_text(file_).value_or("{}"), nullptr, false);
  if (!data_.is_object()) data_ = json::object();
  if (!data_.contains("puzzles") || !data_["puzzles"].is_object()) data_["puzzles"] = json::object();
}

PuzzleProgress ProgressStore::get(int puzzle_id) const {
  const json& puzzles = data_["puzzles"];
  const auto it = puzzles.find(std::to_string(puzzle_id));
  if (it == puzzles.end() || !it->is_object()) return {};
  PuzzleProgress progress{.status = text_at(*it, "status"),
                          .date = text_at(*it, "date"),
                          .passed_date = text_at(*it, "passed_date"),
                          .best_gbps = number_at(*it, "best_gbps"),
                          .best_tflops = number_at(*it, "best_tflops"),
                          .hint_level = hint_level_at(*it)};
  // Files written before passed_date existed: a last check that passed is the last pass.
  if (progress.passed_date.empty() && progress.status == "passed") progress.passed_date = progress.date;
  return progress;
}

json& ProgressStore::entry(int puzzle_id) {
  json& e = data_["puzzles"][std::to_string(puzzle_id)];
  if (!e.is_object()) e = json::object();
  return e;
}

void ProgressStore::record_check(const PuzzleReport& puzzle, const std::string& date) {
  json& entry = this->entry(puzzle.spec->id);
  entry["status"] = to_string(puzzle.status);
  entry["date"] = date;
  if (puzzle.status != PuzzleStatus::passed) return;  // a wrong kernel's speed means nothing
  entry["passed_date"] = date;
  for (const auto& c : puzzle.cases) {
    keep_best(entry, "best_gbps", c.result.gbps);
    keep_best(entry, "best_tflops", c.result.tflops);
  }
}

void ProgressStore::record_hint(int puzzle_id, int level) {
  json& entry = this->entry(puzzle_id);
  entry["hint_level"] = std::max(level, hint_level_at(entry));
}

void ProgressStore::save() const {
  write_atomically(file_, data_.dump(2) + "\n");
}

}  // namespace puzzle::cli
