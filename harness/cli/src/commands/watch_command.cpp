#include <unistd.h>

#include <cstdlib>
#include <random>
#include <string_view>

#include "commands/commands.hpp"
#include "learner/file_watch.hpp"
#include "pipelines/puzzle_lookup.hpp"

namespace puzzle::cli {
namespace {

constexpr auto kSavePollInterval = std::chrono::milliseconds(250);

bool is_terminal() {
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !(term && std::string_view(term) == "dumb");
}

}  // namespace

int watch_command(const Command& command, const BuildConfig& config, Style style, std::ostream& out,
                  std::ostream& err) {
  const PuzzleSpec& spec = lookup_puzzle(command.check.puzzle);
  Command each = command;
  each.kind = CommandKind::check;
  // One seed for the whole session: the result changes only because the code did.
  if (!each.check.seed) {
    std::random_device device;
    each.check.seed = std::uniform_int_distribution<uint64_t>(1, 999999)(device);
  }
  const std::filesystem::path file =
      std::filesystem::absolute(command.check.file.value_or(config.source_dir / stub_path(spec)));
  const bool clear = is_terminal();

  const auto check_now = [&] {
    if (clear) out << "\x1b[2J\x1b[H";  // clear the screen, cursor home
    check_command(each, config, style, out, err);
    out << "\n"
        << style("watching " + file.string() + ": save it to check again; Ctrl-C stops", Tone::dim) << "\n";
    out.flush();
  };
  check_now();
  watch_file(
      file, check_now, [] { return true; }, kSavePollInterval);
  return 0;
}

}  // namespace puzzle::cli
