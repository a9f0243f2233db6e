// Program counters of the learner's code -> source lines, with addr2line. The learner's code is the shared
// object the child loads (learner.so); until it is loaded, the main program.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sim {

struct SourceLine {
  std::string file;  // empty when unknown
  int line = 0;
};

// Where the learner's code is mapped: PCs are reported as offsets from `base`, as addr2line wants them.
struct CodeModule {
  std::string path;
  uintptr_t base = 0, lo = UINTPTR_MAX, hi = 0;  // load address, and the span of its segments
  bool contains(uintptr_t pc) const { return pc >= lo && pc < hi; }
};
// The module that holds `address` (the learner's launcher) becomes the learner's code.
void set_learner_code(const void* address);
const CodeModule& learner_code();
// `pc` as an offset into the learner's code (what addr2line takes), for another process to symbolize.
uintptr_t learner_offset(uintptr_t pc);

// One addr2line run for the PCs this process has not looked up before. For a PC inside inlined code, the
// innermost frame that is not in the simulator's own headers or the standard library: the learner's line.
std::vector<SourceLine> symbolize(const std::vector<uintptr_t>& pcs);

}  // namespace sim
