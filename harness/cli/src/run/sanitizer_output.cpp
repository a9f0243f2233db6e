#include "run/sanitizer_output.hpp"

#include <algorithm>
#include <sstream>

#include "support/text_pattern.hpp"

namespace puzzle::cli {
namespace {

constexpr std::string_view kPrefix = "=========";

// "at kernel(args)+0x1b0 in /path/file.cu:42" (also racecheck's "... access at kernel+0x.. in file:line")
const TextPattern kLocation(R"(at (.+?)\+0x[0-9a-fA-F]+ in (.+):(\d+))");
const TextPattern kThread(R"(by thread (\(\d+,\d+,\d+\)) in block (\(\d+,\d+,\d+\)))");
const TextPattern kSummary(R"((?:ERROR|RACECHECK) SUMMARY: (?:\d+ hazards? displayed \()?(\d+) errors?)");

bool is_heading(const std::string& line) {
  return line.starts_with("COMPUTE-SANITIZER") || line.starts_with("Target application returned") ||
         line.starts_with("LEAK SUMMARY") || line.find("SUMMARY:") != std::string::npos;
}

bool is_noise(const std::string& detail) {
  return detail.starts_with("Saved host backtrace") || detail.starts_with("Host Frame") ||
         detail.starts_with("Device Frame") || detail.starts_with("=========");
}

void add(SanitizerOutput& out, SanitizerFinding finding) {
  const auto same = std::find_if(out.findings.begin(), out.findings.end(), [&](const SanitizerFinding& f) {
    return f.message == finding.message && f.file == finding.file && f.line == finding.line &&
           f.kernel == finding.kernel;
  });
  if (same != out.findings.end()) {
    ++same->count;
  } else {
    out.findings.push_back(std::move(finding));
  }
}

}  // namespace

std::string sanitizer_kind(const std::string& message) {
  static const std::pair<const char*, const char*> kinds[] = {
      {"Invalid __global__ write", "invalid_global_write"},
      {"Invalid __global__ read", "invalid_global_read"},
      {"Invalid __shared__ write", "invalid_shared_write"},
      {"Invalid __shared__ read", "invalid_shared_read"},
      {"Invalid __local__", "invalid_local_access"},
      {"Misaligned", "misaligned_access"},
      {"Race reported", "race"},
      {"Barrier error", "barrier_divergence"},
      {"Program hit", "cuda_api_error"},
      {"Uninitialized", "uninitialized_read"},
      {"Malloc/Free", "malloc_free_error"},
      {"Leaked", "memory_leak"}};
  for (const auto& [text, kind] : kinds) {
    if (message.find(text) != std::string::npos) return kind;
  }
  return "other";
}

SanitizerOutput parse_sanitizer_output(const std::string& tool, const std::string& text) {
  SanitizerOutput out;
  std::optional<SanitizerFinding> current;
  const auto flush = [&] {
    if (current) add(out, std::move(*current));
    current.reset();
  };
  std::istringstream lines(text);
  for (std::string raw; std::getline(lines, raw);) {
    if (!raw.starts_with(kPrefix)) continue;  // the program's own output
    std::string line = raw.substr(kPrefix.size());
    const bool indented = line.starts_with("  ");  // detail lines are indented under their finding
    line.erase(0, line.find_first_not_of(' '));
    if (line.empty()) {
      flush();
      continue;
    }
    if (is_heading(line)) {
      flush();
      // One summary per process: a fault that kills the context makes the parent start another child.
      if (const auto m = kSummary.search(line)) out.errors = out.errors.value_or(0) + std::stoi((*m)[1]);
      continue;
    }
    if (!indented || !current) {
      flush();
      // The tool's own failures ("Internal Sanitizer Error: ...", "Error: Target application terminated
      // before ...") are not the learner's: no summary follows, and the run reports a problem instead.
      if (line.starts_with("Internal Sanitizer Error") ||
          (line.starts_with("Error: ") && !line.starts_with("Error: Race reported"))) {
        out.tool_errors.push_back(line);
        continue;
      }
      // racecheck: "Error: Race reported between ..." or, for a hazard it only suspects, "Warning: ...".
      const bool warning = line.starts_with("Warning: ") || line.starts_with("WARNING: ");
      const bool prefixed = warning || line.starts_with("Error: ") || line.starts_with("ERROR: ");
      current = SanitizerFinding{.tool = tool, .message = prefixed ? line.substr(line.find(": ") + 2) : line};
      current->severity = warning ? "warning" : "error";
      current->kind = sanitizer_kind(current->message);
      if (const auto m = kLocation.search(line)) {  // racecheck puts the first access on the same line
        current->kernel = (*m)[1];
        current->file = (*m)[2];
        current->line = std::stoi((*m)[3]);
        current->message = current->message.substr(0, current->message.find(" at "));
      }
      continue;
    }
    if (is_noise(line)) continue;
    const auto location = current->file.empty() ? kLocation.search(line) : std::nullopt;
    const auto thread = !location && current->thread.empty() ? kThread.search(line) : std::nullopt;
    if (location) {
      current->kernel = (*location)[1];
      current->file = (*location)[2];
      current->line = std::stoi((*location)[3]);
    } else if (thread) {
      current->thread = (*thread)[1];
      current->block = (*thread)[2];
    } else {
      current->details.push_back(line);
    }
  }
  flush();
  return out;
}

}  // namespace puzzle::cli
