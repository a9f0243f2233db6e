#include "run/sim_messages.hpp"

#include <sstream>

#include "support/subprocess.hpp"
#include "support/text_pattern.hpp"

namespace puzzle::cli {

std::optional<std::string> find_sim_message(std::string_view stderr_text, std::string_view kind) {
  const std::string prefix = "[sim] " + std::string(kind) + ": ";
  std::optional<std::string> found;
  std::istringstream lines{std::string(stderr_text)};
  for (std::string line; std::getline(lines, line);) {
    if (const auto at = line.find(prefix); at != std::string::npos) found = line.substr(at + prefix.size());
  }
  return found;
}

std::optional<std::string> symbolize(const std::filesystem::path& program, std::string_view offset_hex) {
  const auto run =
      run_captured({"addr2line", "-e", program.string(), "-f", "-C", "-i", std::string(offset_hex)},
                   std::chrono::seconds(20));
  if (!run.status.ok()) return std::nullopt;
  // Pairs of lines, innermost inlined frame first: function, then file:line.
  std::istringstream lines(run.output);
  for (std::string function, place; std::getline(lines, function) && std::getline(lines, place);) {
    if (place.rfind("??", 0) == 0 || place.ends_with(":0")) continue;
    if (const auto extra = place.find(" ("); extra != std::string::npos)
      place.resize(extra);  // (discriminator N)
    return function == "??" ? place : place + " (in " + function + ")";
  }
  return std::nullopt;
}

std::string locate_crash(const std::string& crash_message, const std::filesystem::path& program) {
  static const TextPattern pc(R"(pc (0x[0-9a-fA-F]+))");
  const auto match = pc.search(crash_message);
  if (!match) return crash_message;
  const auto where = symbolize(program, (*match)[1]);
  if (!where) return crash_message;
  return crash_message.substr(0, match->start()) + "at " + *where + crash_message.substr(match->end());
}

}  // namespace puzzle::cli
