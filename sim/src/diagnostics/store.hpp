// The findings behind sim::report, as the memory checker and the harness API use them.
#pragma once
#include <string>
#include <vector>

#include "diagnostics/report.hpp"
#include "sim/harness_api.h"

namespace sim {

// If (kind, where) is already recorded, or no room is left for a new finding, counts this
// occurrence and returns true: hot callers check it before building a message.
bool count_repeat(const char* kind, Where where) noexcept;

// report() with a second location: "{related}" in the message becomes its file:line.
void report_related(Severity severity, const char* kind, Where where, Where related, std::string message);

// Replaces the message and related location of the finding at (kind, where) with a later occurrence's,
// whose thread it names from then on: for when that occurrence shows the first explanation was too narrow.
// Counts nothing (count_repeat did); records the finding if it is not there.
void revise_finding(Severity severity, const char* kind, Where where, Where related, std::string message);

void clear_findings();
// The findings since clear_findings, symbolized, errors first.
std::vector<harness::Finding> collect_findings();

}  // namespace sim
