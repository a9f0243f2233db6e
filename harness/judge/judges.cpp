#include "judges.hpp"

#include <map>
#include <mutex>
#include <stdexcept>

#include "families/attention_judges.hpp"
#include "families/map_sum_judge.hpp"
#include "families/matmul_judge.hpp"
#include "families/softmax_diagnoses.hpp"

namespace puzzle {
namespace {

using MakeJudge = Judge (*)(const std::vector<std::string>& extra_diagnoses);

// One judge per family of puzzles: a new puzzle of a family names it in its spec.
const std::map<std::string, MakeJudge> kFamilyJudges = {
    {"map_sum", puzzles::map_sum::judge},
    {"softmax", puzzles::softmax::judge},
    {"attention_forward", puzzles::attention::forward_judge},
    {"attention_forward_16bit", puzzles::attention::forward_16bit_judge},
    {"attention_backward", puzzles::attention::backward_judge},
    {"attention_backward_16bit", puzzles::attention::backward_16bit_judge},
    {"matmul", puzzles::matmul::judge},
};

Judge make_judge(const PuzzleSpec& puzzle) {
  const auto family = kFamilyJudges.find(puzzle.judge);
  if (family == kFamilyJudges.end()) {
    throw std::logic_error("puzzle " + std::to_string(puzzle.id) + " names the judge \"" + puzzle.judge +
                           "\", which harness/judge/judges.cpp does not know");
  }
  return family->second(puzzle.diagnoses);
}

}  // namespace

const Judge& judge_of(const PuzzleSpec& puzzle) {
  // Made once per (judge, extras): cases are judged on several threads, and a map keeps its nodes.
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::vector<std::string>>, Judge> made;
  const std::lock_guard lock(mutex);
  const auto key = std::make_pair(puzzle.judge, puzzle.diagnoses);
  auto it = made.find(key);
  if (it == made.end()) it = made.emplace(key, make_judge(puzzle)).first;
  return it->second;
}

RefBuffers expected_outputs(const PuzzleSpec& puzzle, const TestCase& test, const Buffers& inputs) {
  RefBuffers outputs;
  for (const BufferSpec& spec : puzzle.outputs) outputs.emplace_back(spec.elements(test.params));
  judge_of(puzzle).reference(test.params, inputs, outputs);
  return outputs;
}

RefBuffers error_allowance(const PuzzleSpec& puzzle, const TestCase& test, const Buffers& inputs) {
  const Judge& judge = judge_of(puzzle);
  if (!judge.allowance) return {};
  RefBuffers allowance;
  for (const BufferSpec& spec : puzzle.outputs) allowance.emplace_back(spec.elements(test.params));
  judge.allowance(test.params, inputs, allowance);
  return allowance;
}

}  // namespace puzzle
