#include <algorithm>

#include "commands.hpp"
#include "errors.hpp"
#include "progress_store.hpp"
#include "registry.hpp"
#include "text_format.hpp"

namespace puzzle::cli {
namespace {

std::string best_figure(const PuzzleProgress& p) {
  if (p.best_tflops) return fixed(*p.best_tflops, 1) + " TFLOP/s";
  if (p.best_gbps) return fixed(*p.best_gbps, 1) + " GB/s";
  return "";
}

}  // namespace

int list_command(const BuildConfig& config, Style style, std::ostream& out) {
  const ProgressStore progress(progress_file(config.source_dir));
  size_t title_width = 6, file_width = 4;
  for (const auto& p : all_puzzles()) {
    title_width = std::max(title_width, p.title.size());
    file_width = std::max(file_width, p.file.size());
  }
  out << style(padded(" #", 4) + padded("puzzle", title_width + 2) + padded("file", file_width + 2) +
                   padded("cases", 7) + padded("last check", 26) + "best",
               Tone::bold)
      << "\n";
  for (const auto& p : all_puzzles()) {
    const PuzzleProgress mine = progress.get(p.id);
    const std::string last = mine.status.empty() ? "-" : mine.status + " (" + mine.date.substr(0, 10) + ")";
    const Tone tone = mine.status == "passed" ? Tone::good : mine.status.empty() ? Tone::dim : Tone::bad;
    out << padded((p.id < 10 ? " " : "") + std::to_string(p.id), 4) << padded(p.title, title_width + 2)
        << padded(p.file, file_width + 2) << padded(std::to_string(p.cases.size()), 7)
        << style(padded(last, 26), tone) << best_figure(mine) << "\n";
  }
  out << "\nStart with `puzzle check 1`; each puzzle's page is under docs/.\n";
  return kExitPassed;
}

}  // namespace puzzle::cli
