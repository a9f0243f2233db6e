// The softmax family's judge (puzzles 1-4): the float64 reference, the diagnoses of a wrong row that
// every softmax puzzle shares, and the extras a puzzle names in PuzzleSpec::diagnoses.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "judges.hpp"
#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle::puzzles::softmax {

// What one row of the output shows, next to its input and the reference.
struct RowFacts {
  int64_t wrong = 0, nan = 0, inf = 0, unwritten = 0;
  int64_t significant = 0, significant_wrong = 0;  // elements whose answer is above atol
  bool all_zero = true;
  double sum = 0, max_out = -INFINITY;  // over the written, finite outputs
  float max_in = -INFINITY;
  bool has_neg_inf = false;
  // y / expected over the clearly checkable elements, when every one of them is written and finite.
  double low_ratio = INFINITY, high_ratio = -INFINITY;
  double ref_max = 0;  // the row's max input and sum of exp(x - max), in double (rows_mixed needs them)
  double ref_sum = 0;

  bool finite_and_written() const { return nan + inf + unwritten == 0; }
  // The whole row is the right answer times one factor != 1 (a wrong normalizer).
  bool uniformly_scaled() const;
  double factor() const { return (low_ratio + high_ratio) / 2; }
};

std::vector<RowFacts> row_facts(const CaseEvidence& e);

// A diagnosis a puzzle adds on top of the family's (named in its PuzzleSpec::diagnoses).
using ExtraDiagnosis = void (*)(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out);

// Puzzle 2-3: each tile of a row normalized on its own, so a row sums to its number of tiles.
void tiles_normalized_separately(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out);
// Puzzle 3: the running sum not rescaled when the running max grew.
void online_missing_rescale(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out);
// Puzzle 4: the max or sum of one row used for a neighbouring row.
void rows_mixed(const std::vector<RowFacts>& facts, std::vector<Diagnosis>& out);

// The family's diagnoses of a failed case, then the puzzle's extras.
void family_diagnoses(const CaseEvidence& e, const std::vector<ExtraDiagnosis>& extras,
                      std::vector<Diagnosis>& out);

// y = softmax(x), row by row, in double.
void reference(const Params& p, const Buffers& inputs, RefBuffers& outputs);

// The judge "softmax": the reference and family_diagnoses, with the named extras among
// tiles_normalized_separately, online_missing_rescale and rows_mixed.
Judge judge(const std::vector<std::string>& extra_diagnoses);

}  // namespace puzzle::puzzles::softmax
