// What the harness API collects from the launch machinery.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/harness_api.h"

namespace sim {

std::vector<harness::LaunchRecord> take_launch_log();  // launches since the last call
uint64_t take_context_switches();                      // fiber switches since the last call
uint64_t take_simulated_threads();                     // threads run since the last call

}  // namespace sim
