// The simulator's report as the child writes it into the case record ("sim", see protocol.hpp).
#pragma once
#include <nlohmann/json.hpp>

#include "sim/harness_api.h"

namespace puzzle::child {

nlohmann::json to_json(const sim::harness::Report& report);

}  // namespace puzzle::child
