// Reading the simulator's report from a case record ("sim" in protocol.hpp) in the parent.
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "registry.hpp"

namespace puzzle {

struct SimFinding {
  std::string severity;  // "error" fails the case; "warning" becomes a note
  std::string kind;
  std::string message;
  std::string file;
  int line = 0;
  std::array<int, 3> block{-1, -1, -1};
  std::array<int, 3> thread{-1, -1, -1};
  uint64_t count = 1;
};

std::vector<SimFinding> sim_findings(const nlohmann::json& sim);
// "message (at file.cu:12, block (3,0,0), thread (35,0,0); 12 times)"
std::string describe(const SimFinding& finding);
// "kernel k: cudaErrorInvalidConfiguration" for each launch the simulator refused.
std::vector<std::string> refused_launches(const nlohmann::json& sim);
// "traffic: x read 3.0x, y written 1.0x (budget: read x once, write y once)"; empty without traffic.
std::string traffic_note(const nlohmann::json& sim, const PuzzleSpec& puzzle);

}  // namespace puzzle
