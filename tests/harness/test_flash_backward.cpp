// Puzzle 6's judge on float32 implementations of the backward pass: the right one passes every case with
// a margin; each wrong one fails with its diagnosis.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "case_data.hpp"
#include "judges.hpp"
#include "fp32_attention_backward.hpp"
#include "judge_trial.hpp"
#include "verdict.hpp"

using namespace puzzle;

namespace {

constexpr int kPuzzle = 6;
constexpr uint64_t kSeed = 5;

struct Run {
  const PuzzleSpec& puzzle = *find_puzzle(kPuzzle);
  const TestCase& test;
  Buffers inputs;
  fp32::Gradients got;

  Run(const std::string& name, const fp32::Backward& how = {})
      : test(trial::case_named(puzzle, name)), inputs(draw_inputs(puzzle, test, kSeed)) {
    got = fp32::flash_backward(test.params, inputs, how);
  }

  CaseResult judge() const {
    std::vector<std::vector<float>> files;
    for (const std::vector<float>* buffer : {&got.dq, &got.dk, &got.dv}) {
      std::vector<float> file = trial::Trial::guard();
      file.insert(file.end(), buffer->begin(), buffer->end());
      const std::vector<float> after = trial::Trial::guard();
      file.insert(file.end(), after.begin(), after.end());
      files.push_back(std::move(file));
    }
    return judge_case(puzzle, test, kSeed, files, trial::launched());
  }

  // The largest |got - want| - rtol |want| over the three gradients: the least atol that passes them.
  double needed_atol(double rtol) const {
    const RefBuffers want = expected_outputs(puzzle, test, inputs);
    double worst = 0;
    const std::vector<float>* got_buffers[] = {&got.dq, &got.dk, &got.dv};
    for (size_t b = 0; b < want.size(); ++b) {
      for (size_t i = 0; i < want[b].size(); ++i) {
        worst = std::max(worst, std::abs((*got_buffers[b])[i] - want[b][i]) - rtol * std::abs(want[b][i]));
      }
    }
    return worst;
  }
};

}  // namespace

TEST_CASE("a right float32 backward pass passes every simulator case of puzzle 6 with a margin") {
  const PuzzleSpec& p = *find_puzzle(kPuzzle);
  double worst = 0;
  for (const TestCase& t : p.cases) {
    if (!t.sim) continue;
    const Run run(t.name);
    const CaseResult r = run.judge();
    INFO(t.name, ": ", r.message, " ", trial::all_ids(r));
    CHECK(r.status == CaseStatus::passed);
    worst = std::max(worst, run.needed_atol(p.tolerance.rtol));
  }
  MESSAGE("puzzle 6: a right float32 kernel needs atol ", worst, " at rtol ", p.tolerance.rtol);
  CHECK(worst < p.tolerance.atol / 3);  // a real margin, not a lucky pass
}

// Slow (the float64 references of the GPU cases take about 3 minutes): run with --no-skip after a change
// of the tolerance or of the case list. Its figures are in the comment on p06's tolerance.
TEST_CASE("tolerance figures of puzzle 6 on every case, GPU-only ones included" * doctest::skip()) {
  const PuzzleSpec& p = *find_puzzle(kPuzzle);
  for (const TestCase& t : p.cases) {
    const Run run(t.name);
    MESSAGE(t.name, ": atol needed at rtol 1e-4: ", run.needed_atol(1e-4),
            ", at 1e-3: ", run.needed_atol(1e-3));
  }
}

namespace {

// The diagnoses of `how` over the simulator cases, each id once.
std::vector<std::string> diagnoses_of(const fp32::Backward& how) {
  std::vector<std::string> ids;
  for (const TestCase& t : find_puzzle(kPuzzle)->cases) {
    if (!t.sim) continue;
    for (const Diagnosis& d : Run(t.name, how).judge().diagnoses) {
      if (std::find(ids.begin(), ids.end(), d.id) == ids.end()) ids.push_back(d.id);
    }
  }
  return ids;
}

bool has_id(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

TEST_CASE("each wrong float32 backward pass fails with its diagnosis") {
  const struct {
    const char* name;
    fp32::Backward how;
    const char* id;
  } kWrong[] = {
      {"P without lse", {.subtract_lse = false}, "p_without_lse"},
      {"lse as base 2", {.lse_base_2 = true}, "lse_wrong_base"},
      {"D omitted", {.subtract_delta = false}, "delta_omitted"},
      {"no scale on dq and dk", {.scale_dq_dk = false}, "gradient_scaled"},
      {"causal diagonal one key late", {.diagonal_shift = 1}, "causal_mask_shifted"},
      {"causal diagonal one key early", {.diagonal_shift = -1}, "causal_mask_shifted"},
      {"dq overwritten by each tile of keys", {.add_dq = false}, "dq_lost_updates"},
  };
  for (const auto& wrong : kWrong) {
    const std::vector<std::string> ids = diagnoses_of(wrong.how);
    std::string listed;
    for (const std::string& id : ids) listed += id + " ";
    INFO(wrong.name, ": ", listed);
    CHECK(has_id(ids, wrong.id));
  }
}

TEST_CASE("a backward pass that only lost some of dq's tiles is not blamed on P, D or the scale") {
  const std::vector<std::string> ids = diagnoses_of({.add_dq = false});
  for (const char* other : {"p_without_lse", "lse_wrong_base", "delta_omitted", "gradient_scaled"}) {
    CHECK_FALSE(has_id(ids, other));
  }
}

TEST_CASE("dq alone off by one factor is told apart from lost updates") {
  Run run("scale_0.3");
  for (float& x : run.got.dq) x /= 0.3f;  // the scale of dq left out, dk's kept
  const CaseResult r = run.judge();
  INFO(trial::all_ids(r));
  CHECK(trial::has(r, "dq_scaled"));
  CHECK_FALSE(trial::has(r, "dq_lost_updates"));
  CHECK(trial::message_of(r, "dq_scaled").find("3.333") != std::string::npos);
}
