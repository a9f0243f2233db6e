// Judging one case: the child's outputs against the double-precision reference.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "protocol.hpp"
#include "registry.hpp"

namespace puzzle {

struct Mismatch {
  int64_t index;         // element index in the buffer
  std::string location;  // BufferSpec::locate, e.g. "row 3, col 17"
  double expected;
  float got;
};

struct BufferCheck {
  std::string name;
  Dtype dtype = Dtype::f32;  // as the device held it
  int64_t elements = 0;
  int64_t mismatches = 0;       // elements outside tolerance (NaN, inf and unwritten included)
  int64_t nan_count = 0;        // NaN outputs (poison excluded) where the reference is not NaN
  int64_t inf_count = 0;        // inf outputs where the reference is finite
  int64_t unwritten = 0;        // still poison
  int64_t guard_before = 0;     // guard elements overwritten before the buffer
  int64_t guard_after = 0;      // guard elements overwritten after it
  int64_t farthest_before = 0;  // how far before the start the farthest out-of-bounds write landed
  int64_t farthest_after = 0;   // how far past the end the farthest out-of-bounds write landed
  double max_abs_err = 0;       // over finite, written elements
  double max_rel_err = 0;
  std::vector<Mismatch> first;  // the first few mismatches in index order
  bool available = true;        // false: the child could not copy the buffer back (dead CUDA context)
};

enum class CaseStatus { passed, failed, crashed, timeout, skipped };
const char* to_string(CaseStatus s);

// Everything known about a case, for diagnoses and reports.
struct CaseEvidence {
  const PuzzleSpec* puzzle = nullptr;
  const TestCase* test = nullptr;
  const Buffers* inputs = nullptr;
  const Buffers* outputs = nullptr;  // without guards
  const RefBuffers* expected = nullptr;
  const RefBuffers* allowance = nullptr;  // Judge::allowance's (empty when the judge has none)
  std::vector<BufferCheck> checks;
  protocol::CaseRecord record;
};

struct CaseResult {
  std::string name;
  Params params;
  CaseStatus status = CaseStatus::skipped;
  int points = 0, max_points = 0;
  std::vector<BufferCheck> checks;
  std::vector<Diagnosis> diagnoses;  // generic first, then the puzzle's own
  std::vector<std::string> notes;    // remarks that do not fail the case (simulator warnings, traffic)
  std::string message;               // one line summary ("3 of 16641 elements wrong")
  protocol::CaseRecord record;       // what the child said (timing, sim report)
  std::optional<double> gbps, pct_of_copy, tflops, solution_gbps;
};

// What a case's outputs must be: its inputs and their float64 reference. A pure function of puzzle, case
// and seed, so the parent can compute it while the child is still running the case.
struct CaseExpectation {
  Buffers inputs;
  RefBuffers expected;
  RefBuffers allowance;  // Judge::allowance's, or empty
};
CaseExpectation expect_case(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed);
CaseExpectation expect_case(const PuzzleSpec& puzzle, const TestCase& test, Buffers inputs);  // drawn already

// Compares outputs (with guards, as the child wrote them) to the reference and diagnoses.
CaseResult judge_case(const PuzzleSpec& puzzle, const TestCase& test, const CaseExpectation& expectation,
                      const std::vector<std::span<const float>>& outputs_with_guards,
                      const protocol::CaseRecord& record);
// The same, drawing the inputs and computing the reference first.
CaseResult judge_case(const PuzzleSpec& puzzle, const TestCase& test, uint64_t seed,
                      const std::vector<std::span<const float>>& outputs_with_guards,
                      const protocol::CaseRecord& record);

// A case whose child died or hung: no outputs to judge.
CaseResult failed_run(const PuzzleSpec& puzzle, const TestCase& test, CaseStatus status, std::string message,
                      std::vector<Diagnosis> diagnoses);

}  // namespace puzzle
