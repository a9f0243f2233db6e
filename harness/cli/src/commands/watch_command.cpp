#include <unistd.h>

#include <cstdlib>
#include <random>
#include <string_view>

#include "commands/commands.hpp"
#include "learner/file_watch.hpp"
#include "learner/learner_progress.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "support/errors.hpp"

namespace puzzle::cli {
namespace {

constexpr auto kSavePollInterval = std::chrono::milliseconds(250);

bool is_terminal() {
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !(term && std::string_view(term) == "dumb");
}

}  // namespace

// Checks the puzzle's file on every save; after a pass it goes on to the next puzzle (as `puzzle next`
// says), as rustlings does, until every puzzle has passed. A --file is watched for good: there is no next
// one for it.
int watch_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err, const std::function<bool()>& keep_watching) {
  const PuzzleSpec* spec = command.check.puzzle.empty()
                               ? next_puzzle(ProgressStore(progress_file(config.source_dir)))
                               : &lookup_puzzle(command.check.puzzle);
  Command each = command;
  each.kind = CommandKind::check;
  // One seed for the whole session: the result changes only because the code did.
  if (!each.check.seed) {
    std::random_device device;
    each.check.seed = std::uniform_int_distribution<uint64_t>(1, 999999)(device);
  }
  const bool clear = is_terminal();
  const bool moves_on = !command.check.file;
  while (spec) {
    each.check.puzzle = std::to_string(spec->id);
    const std::filesystem::path file = command.check.file ? std::filesystem::absolute(*command.check.file)
                                                          : config.source_dir / stub_path(*spec);
    const std::string shown = command.check.file ? file.string() : stub_path(*spec);
    bool passed = false;
    const auto check_now = [&] {
      if (clear) out << "\x1b[2J\x1b[H";  // clear the screen, cursor home
      passed = check_command(each, config, style, out, err) == kExitPassed;
      if (!(passed && moves_on)) {
        out << "\n"
            << style("watching " + shown + ": save it to check again; Ctrl-C stops", Tone::dim) << "\n";
      }
      out.flush();
    };
    check_now();
    watch_file(
        file, check_now, [&] { return !(passed && moves_on) && keep_watching(); }, kSavePollInterval);
    if (!(passed && moves_on)) return kExitPassed;  // told to stop
    spec = next_puzzle(ProgressStore(progress_file(config.source_dir)));
    if (spec) {
      out << "\n"
          << style("Next: puzzle " + std::to_string(spec->id) + ", " + spec->title, Tone::bold) << "\n  "
          << spec->summary << "\n  guide: " << spec->docs << "\n"
          << style("watching " + stub_path(*spec) + ": save it to check; Ctrl-C stops", Tone::dim) << "\n";
      out.flush();
      // The next puzzle's stub is checked at its first save, not now: untouched, it only fails.
      bool saved = false;
      watch_file(
          config.source_dir / stub_path(*spec), [&] { saved = true; },
          [&] { return !saved && keep_watching(); }, kSavePollInterval);
      if (!saved) return kExitPassed;
    }
  }
  out << style("Every puzzle has passed.", Tone::good) << "\n";
  return kExitPassed;
}

}  // namespace puzzle::cli
