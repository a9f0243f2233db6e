// The simulator's findings: thread-safe, deduplicated, symbolized when the harness collects them.
#pragma once
#include <cstdint>
#include <string>

namespace sim {

enum class Severity { error, warning };

struct Where {  // a source location, or a PC inside the learner's code to symbolize later
  const char* file = nullptr;
  int line = 0;
  uintptr_t pc = 0;
};

// Records a finding. Inside a kernel it attaches the current block and thread. Findings with the
// same (kind, location) are folded into one with a count; the first occurrence's message is kept.
void report(Severity severity, const char* kind, Where where, std::string message);

}  // namespace sim
