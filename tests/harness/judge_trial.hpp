// One case of a softmax puzzle (1 unless told) judged from a synthetic output: start from a right float32
// kernel's output, break it the way a wrong kernel would, judge it.
#pragma once
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "case_data.hpp"
#include "fp32_softmax.hpp"
#include "judges.hpp"
#include "protocol.hpp"
#include "registry.hpp"
#include "verdict.hpp"

namespace trial {

// A record as the child writes it for a launcher that ran one kernel: the judge refuses one without.
inline puzzle::protocol::CaseRecord launched() {
  return {.kernel_launches = 1};
}

inline const puzzle::TestCase& case_named(const puzzle::PuzzleSpec& p, const std::string& name) {
  return *std::find_if(p.cases.begin(), p.cases.end(),
                       [&](const puzzle::TestCase& t) { return t.name == name; });
}

inline float poison() {
  return std::bit_cast<float>(puzzle::protocol::kPoisonBits);
}

struct Trial {
  const puzzle::PuzzleSpec& puzzle;
  const puzzle::TestCase& test;
  static constexpr uint64_t kSeed = 9;
  uint64_t seed = kSeed;
  puzzle::Buffers inputs;
  std::vector<float> y;  // what the kernel wrote
  std::vector<float> before = guard(), after = guard();
  puzzle::protocol::CaseRecord record = launched();

  // Judged against this case's inputs and reference, computed once for several trials, when set.
  const puzzle::CaseExpectation* expectation = nullptr;

  explicit Trial(const std::string& name, const fp32::Kernel& kernel = {}) : Trial(1, name, kernel) {}
  Trial(int puzzle_id, const std::string& name, const fp32::Kernel& kernel = {})
      : puzzle(*puzzle::find_puzzle(puzzle_id)),
        test(case_named(puzzle, name)),
        inputs(puzzle::draw_inputs(puzzle, test, seed)) {
    y = fp32::softmax(inputs[0], rows(), cols(), kernel);
  }
  // A trial of a case whose inputs and reference `shared` holds (expect(): the same seed), so that several
  // kernels judged on one case draw its inputs and compute its float64 reference once.
  Trial(int puzzle_id, const puzzle::CaseExpectation& shared, const std::string& name,
        const fp32::Kernel& kernel)
      : puzzle(*puzzle::find_puzzle(puzzle_id)),
        test(case_named(puzzle, name)),
        inputs(shared.inputs),
        expectation(&shared) {
    y = fp32::softmax(inputs[0], rows(), cols(), kernel);
  }
  static puzzle::CaseExpectation expect(int puzzle_id, const std::string& name) {
    const puzzle::PuzzleSpec& p = *puzzle::find_puzzle(puzzle_id);
    return puzzle::expect_case(p, case_named(p, name), Trial::kSeed);
  }
  int64_t rows() const { return test.params.at("rows"); }
  int64_t cols() const { return test.params.at("cols"); }
  float& at(int64_t r, int64_t c) { return y[r * cols() + c]; }
  float x(int64_t r, int64_t c) const { return inputs[0][r * cols() + c]; }

  puzzle::CaseResult judge() const {
    std::vector<float> file = before;
    file.insert(file.end(), y.begin(), y.end());
    file.insert(file.end(), after.begin(), after.end());
    if (expectation) return puzzle::judge_case(puzzle, test, *expectation, {file}, record);
    return puzzle::judge_case(puzzle, test, seed, {file}, record);
  }

  static std::vector<float> guard() {
    return std::vector<float>(puzzle::protocol::kGuardElems,
                              std::bit_cast<float>(puzzle::protocol::kGuardBits));
  }
};

inline bool has(const puzzle::CaseResult& r, const std::string& id) {
  return std::any_of(r.diagnoses.begin(), r.diagnoses.end(),
                     [&](const puzzle::Diagnosis& d) { return d.id == id; });
}

inline std::string message_of(const puzzle::CaseResult& r, const std::string& id) {
  for (const auto& d : r.diagnoses) {
    if (d.id == id) return d.message;
  }
  return {};
}

inline std::string all_ids(const puzzle::CaseResult& r) {
  std::string ids;
  for (const auto& d : r.diagnoses) ids += d.id + " ";
  return ids;
}

}  // namespace trial
