// Words for findings: source sites, blocks and sets of threads, compactly.
#pragma once
#include <source_location>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "diagnostics/report.hpp"

namespace sim {

bool same_site(const std::source_location& a, const std::source_location& b);
// "softmax.cu:41", or "softmax.cu:41:7" to tell apart two calls on one line.
std::string describe_site(const std::source_location& where, bool with_column = false);
std::string describe_block(const BlockState& block);  // "block (3,0,0)"
// Linear thread indices (ascending) as ranges: "threads 0-127, 256-300" in a 1-D block, else
// "threads (0,0,0)-(31,3,0)" in threadIdx order.
std::string describe_threads(const std::vector<unsigned>& linear, const dim3& block_dim);
std::string hex_mask(uint32_t mask);  // "0x0000ffff"

Where where_of(const std::source_location& where);
// report() as if `thread` were running, so the finding names its block and thread.
void report_as(const ThreadState& thread, Severity severity, const char* kind,
               const std::source_location& where, std::string message);

}  // namespace sim
