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
// Shared-memory wavefronts per source line (loads, stores, ldmatrix), worst bank conflicts first.
struct SharedLine {
  std::string file;
  int line = 0;
  uint64_t instructions = 0, wavefronts = 0, ideal_wavefronts = 0;
  bool uneven = false;  // lanes ran the line unevenly: an estimate, possibly high (sim's SharedWavefronts)
  uint64_t extra() const { return wavefronts - ideal_wavefronts; }  // the bank conflicts' cost
};
std::vector<SharedLine> shared_lines(const nlohmann::json& sim);
// Extra wavefronts over every line whose count is certain: what a budget holds a kernel to. An uneven
// line's estimate could fail a right kernel, so it is shown (describe_bank_conflicts) but not counted.
uint64_t bank_conflicts(const nlohmann::json& sim);
bool any_bank_conflicts(const nlohmann::json& sim);  // uneven lines included
// "k.cu:41: 64 instructions took 512 wavefronts where 128 would do (4.0-way)" for the worst `count` lines.
std::string describe_bank_conflicts(const nlohmann::json& sim, size_t count);

// "traffic: x read 3.0x, y written 1.0x (budget: read x once, write y once)"; empty without traffic.
std::string traffic_note(const nlohmann::json& sim, const PuzzleSpec& puzzle);

}  // namespace puzzle
