// Program counters of the learner's code -> source lines, with addr2line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sim {

struct SourceLine {
  std::string file;  // empty when unknown
  int line = 0;
};

// One addr2line run for the whole batch. For a PC inside inlined code, the innermost frame that is
// not in the simulator's own headers or the standard library: the learner's line.
std::vector<SourceLine> symbolize(const std::vector<uintptr_t>& pcs);

}  // namespace sim
