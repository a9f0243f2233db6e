// The puzzle registry: everything the CLI, the child, the tests and the docs know about a puzzle.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dtype.hpp"

namespace puzzle {

using Params = std::map<std::string, int64_t>;    // a case's sizes, e.g. {"rows": 127, "cols": 129}
using Buffers = std::vector<std::vector<float>>;  // one vector per input or output buffer (dtype.hpp)
using RefBuffers = std::vector<std::vector<double>>;

struct TestCase {
  std::string name;  // unique within the puzzle, e.g. "127x129" or "huge_logits"
  Params params;
  std::string input_kind;  // how inputs are drawn; puzzle-defined ("random", "huge_logits", ...)
  std::string about;       // one line: why this case exists
  int points = 1;
  bool perf = false;  // timed on a GPU: the bandwidth / TFLOP/s figure of `check`
  bool sim = true;    // also run on the simulator (false: too large for a CPU in a few seconds)
};

struct BufferSpec {
  std::string name;                                           // as in the launcher's signature: "x", "y"
  std::function<int64_t(const Params&)> elements;             // elements of `dtype`
  std::function<std::string(const Params&, int64_t)> locate;  // element index -> "row 3, col 17"
  // Elements per row, so that reports can say "whole rows" or "tail columns"; empty for 1-D buffers.
  std::function<int64_t(const Params&)> row_length;
  Dtype dtype = Dtype::f32;  // on the device; the host holds every buffer as floats
};

struct Tolerance {  // |got - expected| <= atol + rtol * |expected|, elementwise
  double atol;
  double rtol;
};

struct Diagnosis {
  std::string id;       // stable, e.g. "missing_max_subtraction"; tests match on it
  std::string message;  // what we think is wrong and what to try
};

struct PuzzleSpec {
  int id = 0;
  std::string slug;     // "row_softmax"
  std::string title;    // "Row softmax"
  std::string summary;  // one sentence
  // Filled in by the registry from id and slug: "01_row_softmax.cu" (the stub in its folder, a solution,
  // a graded submission) and "puzzles/01_row_softmax/README.md".
  std::string file;
  std::string docs;
  std::string signature;  // the launcher the file must define: kLauncherSignature (launcher.hpp)
  std::vector<BufferSpec> inputs;
  std::vector<BufferSpec> outputs;
  std::vector<TestCase> cases;
  // `puzzle bench`: the shapes timed on a GPU (not judged: `check` does that), and the file under
  // baselines/ timed beside the solution ("" when there is none), with what it is called in tables.
  std::vector<TestCase> sweep;
  std::string baseline_title;
  Tolerance tolerance{};
  std::function<double(const Params&)> min_bytes;  // bytes a perfect kernel moves (read + write)
  std::function<double(const Params&)> flops;      // empty for memory-bound puzzles
  std::function<void(const TestCase&, uint64_t seed, Buffers& inputs)> make_inputs;
  // Who judges it, in the parent only (harness/judge/judges.cpp): the family's judge, e.g. "softmax" (its
  // float64 reference and diagnoses), and the extra diagnoses of that judge this puzzle's algorithm can show.
  std::string judge;
  std::vector<std::string> diagnoses;
  std::array<std::string, 3> hints;  // from a nudge to nearly the answer
  int line_budget = 0;               // "roughly N lines" of kernel + launcher
  std::string traffic_budget;        // "read x once, write y once"
  // Device memory one launcher call may allocate (the peak of its own allocations, in bytes, a workspace
  // kept from earlier calls not counted); empty: no limit. A case above it fails with diagnosis
  // scratch_too_large, whose message gives scratch_budget as the reason.
  std::function<double(const Params&)> max_scratch_bytes;
  std::string scratch_budget;  // "O(bh * n * d): never an n_q x n_k matrix"
  // Shared-memory bank conflicts a case may cost on the simulator: extra wavefronts over all the
  // kernels' warp instructions (sim/src/memory/banks.hpp); empty: no limit. Over it the case fails with
  // diagnosis bank_conflicts, whose message names the worst lines and gives bank_conflict_budget.
  std::function<double(const Params&)> max_bank_conflicts;
  std::string bank_conflict_budget;  // "none in the fragment loads: swizzle the shared tiles"
};

// Every puzzle, by id: the parent's registry holds every puzzles/NN_slug/spec.cpp, a child's only its own.
const std::vector<PuzzleSpec>& all_puzzles();
// The specs as CMake found them (a generated source of harness/core/CMakeLists.txt), in any order.
std::vector<PuzzleSpec> registered_puzzles();
// Where a puzzle lives, relative to the repository: puzzles/01_row_softmax/ holds its stub, spec and docs
// page; solutions/01_row_softmax/ its solution ladder (kept apart, so that a course can leave it out).
std::string puzzle_folder(const PuzzleSpec& puzzle);     // "puzzles/01_row_softmax"
std::string stub_path(const PuzzleSpec& puzzle);         // "puzzles/01_row_softmax/01_row_softmax.cu"
std::string solutions_folder(const PuzzleSpec& puzzle);  // "solutions/01_row_softmax"
// The versions of the puzzle's ladder under the repository `root`, in order: the files
// <V>_<what_changes>.cu of solutions_folder() (V = 1, 2, ...; 1_clear.cu first). The headers beside them
// (.cuh) are not versions. Empty when there is no such folder. Its CMake twin is
// puzzle_solution_ladder() in cmake/Puzzles.cmake.
std::vector<std::filesystem::path> solution_ladder(const PuzzleSpec& puzzle,
                                                   const std::filesystem::path& root);
const PuzzleSpec* find_puzzle(int id);
const PuzzleSpec* find_puzzle(const std::string& id_or_slug);  // "1", "01", "row_softmax"

}  // namespace puzzle
