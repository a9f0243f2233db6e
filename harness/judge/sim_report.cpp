#include "sim_report.hpp"

#include <algorithm>
#include <cstdio>

namespace puzzle {
namespace {

std::string triple(const std::array<int, 3>& v) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
}

std::string times(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1fx", ratio);
  return text;
}

}  // namespace

std::vector<SimFinding> sim_findings(const nlohmann::json& sim) {
  std::vector<SimFinding> findings;
  if (!sim.is_object() || !sim.contains("findings")) return findings;
  for (const auto& f : sim["findings"]) {
    SimFinding finding;
    finding.severity = f.value("severity", "error");
    finding.kind = f.value("kind", "unknown");
    finding.message = f.value("message", "");
    finding.file = f.value("file", "");
    finding.line = f.value("line", 0);
    finding.block = f.value("block", finding.block);
    finding.thread = f.value("thread", finding.thread);
    finding.count = f.value("count", finding.count);
    findings.push_back(std::move(finding));
  }
  return findings;
}

std::string describe(const SimFinding& f) {
  std::vector<std::string> where;
  if (!f.file.empty()) where.push_back("at " + f.file + ":" + std::to_string(f.line));
  if (f.block[0] >= 0) where.push_back("block " + triple(f.block) + ", thread " + triple(f.thread));
  std::string text = f.message;
  if (!where.empty()) {
    text += " (";
    for (size_t i = 0; i < where.size(); ++i) text += (i ? ", " : "") + where[i];
    text += ")";
  }
  if (f.count > 1) text += "; " + std::to_string(f.count) + " times";
  return text;
}

std::vector<std::string> refused_launches(const nlohmann::json& sim) {
  std::vector<std::string> refused;
  if (!sim.is_object() || !sim.contains("launches")) return refused;
  for (const auto& launch : sim["launches"]) {
    const std::string error = launch.value("error", "");
    if (!error.empty()) refused.push_back("kernel " + launch.value("kernel", "?") + ": " + error);
  }
  return refused;
}

std::vector<SharedLine> shared_lines(const nlohmann::json& sim) {
  std::vector<SharedLine> lines;
  if (!sim.is_object() || !sim.contains("shared_wavefronts")) return lines;
  for (const auto& w : sim["shared_wavefronts"]) {
    SharedLine line{w.value("file", ""),
                    w.value("line", 0),
                    w.value("instructions", uint64_t{0}),
                    w.value("wavefronts", uint64_t{0}),
                    w.value("ideal_wavefronts", uint64_t{0}),
                    w.value("uneven", false)};
    if (line.wavefronts >= line.ideal_wavefronts) lines.push_back(line);
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const SharedLine& a, const SharedLine& b) { return a.extra() > b.extra(); });
  return lines;
}

uint64_t bank_conflicts(const nlohmann::json& sim) {
  uint64_t extra = 0;
  for (const SharedLine& line : shared_lines(sim))
    if (!line.uneven) extra += line.extra();
  return extra;
}

bool any_bank_conflicts(const nlohmann::json& sim) {
  const std::vector<SharedLine> lines = shared_lines(sim);
  return std::any_of(lines.begin(), lines.end(), [](const SharedLine& line) { return line.extra() > 0; });
}

std::string describe_bank_conflicts(const nlohmann::json& sim, size_t count) {
  std::string text;
  for (const SharedLine& line : shared_lines(sim)) {
    if (line.extra() == 0 || count == 0) break;
    --count;
    char ways[32];
    std::snprintf(ways, sizeof ways, "%.1f-way",
                  static_cast<double>(line.wavefronts) / line.ideal_wavefronts);
    const size_t slash = line.file.find_last_of('/');
    text += (text.empty() ? "" : "; ") +
            (slash == std::string::npos ? line.file : line.file.substr(slash + 1)) + ":" +
            std::to_string(line.line) + ": " + std::to_string(line.instructions) +
            " warp instructions took " + std::to_string(line.wavefronts) + " wavefronts where " +
            std::to_string(line.ideal_wavefronts) + " would do (" + ways + ")" +
            (line.uneven ? ", an estimate: its lanes ran it different numbers of times between barriers, "
                           "and executions paired by count may be ones the GPU runs apart (not held "
                           "against a budget)"
                         : "");
  }
  return text;
}

std::string traffic_note(const nlohmann::json& sim, const PuzzleSpec& puzzle) {
  if (!sim.is_object() || !sim.contains("traffic")) return {};
  std::string parts;
  for (const auto& t : sim["traffic"]) {
    const double size = t.value("size", 0.0);
    if (size <= 0) continue;
    std::string label = t.value("label", "");
    if (label.empty()) label = "scratch";
    for (const auto& [key, verb] :
         {std::pair{"bytes_read", " read "}, std::pair{"bytes_written", " written "}}) {
      const double bytes = t.value(key, 0.0);
      if (bytes > 0) parts += (parts.empty() ? "" : ", ") + label + verb + times(bytes / size);
    }
  }
  if (parts.empty()) return {};
  std::string note = "traffic: " + parts;
  if (!puzzle.traffic_budget.empty()) note += " (budget: " + puzzle.traffic_budget + ")";
  return note;
}

}  // namespace puzzle
