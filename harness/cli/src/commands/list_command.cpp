#include <algorithm>

#include "commands/commands.hpp"
#include "learner/learner_progress.hpp"
#include "registry.hpp"
#include "report/text_format.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

constexpr size_t kLastCheckWidth = 26;  // "2025-01-02 compile_error" and a gap

std::string best_figure(const PuzzleProgress& p) {
  if (p.best_tflops) return fixed(*p.best_tflops, 1) + " TFLOP/s";
  if (p.best_gbps) return fixed(*p.best_gbps, 1) + " GB/s";
  return "-";
}

// The last check's date, and its status where it differs from the best one (a fail after a pass).
std::string last_check(const PuzzleProgress& p, const std::string& best) {
  if (p.date.empty()) return "-";
  return p.date.substr(0, 10) + (p.status == best ? "" : " " + p.status);
}

Tone tone_of(const std::string& standing) {
  if (standing == "passed") return Tone::good;
  return standing == "failed" ? Tone::bad : Tone::dim;
}

// The cases a check counts, as `check` says them: "15", or "15 + 3 GPU" where 3 more run on a GPU only.
constexpr size_t kCasesWidth = 13;
std::string cases_text(const PuzzleSpec& p) {
  const auto on_sim = std::count_if(p.cases.begin(), p.cases.end(), [](const TestCase& t) { return t.sim; });
  const auto gpu_only = static_cast<int64_t>(p.cases.size()) - on_sim;
  return std::to_string(on_sim) + (gpu_only > 0 ? " + " + std::to_string(gpu_only) + " GPU" : "");
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
                   padded("cases", kCasesWidth) + padded("status", 11) +
                   padded("last check", kLastCheckWidth) + "best (GPU)",
               Tone::bold)
      << "\n";
  for (const auto& p : all_puzzles()) {
    const PuzzleProgress mine = progress.get(p.id);
    const std::string where = standing(mine);
    out << padded((p.id < 10 ? " " : "") + std::to_string(p.id), 4) << padded(p.title, title_width + 2)
        << padded(p.file, file_width + 2) << padded(cases_text(p), kCasesWidth)
        << style(padded(where, 11), tone_of(where)) << padded(last_check(mine, where), kLastCheckWidth)
        << best_figure(mine) << "\n";
  }
  const int total = static_cast<int>(all_puzzles().size());
  out << "\n" << progress_bar(passed_puzzles(progress), total, kProgressBarWidth) << "\n";
  if (const PuzzleSpec* next = next_puzzle(progress)) {
    out << "Next: `puzzle check " << next->id << "` (" << stub_path(*next) << "); `puzzle next` says more.\n";
  } else {
    out << "Every puzzle passed.\n";
  }
  return kExitPassed;
}

}  // namespace puzzle::cli
