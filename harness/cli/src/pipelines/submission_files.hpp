// Where a student's submission keeps a puzzle's file. Students upload loose files, a puzzles/ folder or a
// whole copy of the repository, and browsers and hands rename files: each puzzle file has a unique name
// (01_row_softmax.cu), so look for it, and for the names it is given by mistake.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "registry.hpp"

namespace puzzle::cli {

struct SubmittedFile {
  std::optional<std::filesystem::path> graded;  // the file to grade; absent when there is none
  bool near_name = false;                       // graded is named like the puzzle's file, not exactly
  std::vector<std::filesystem::path> others;    // the other candidates, not graded
};

// The puzzle's file in `dir` or below it. Its exact name first, else a near name: another case, a
// browser's copy suffix (" (1)", "-1", " copy"), or no number prefix ("row_softmax.cu"). Of several, the
// shallowest, then the first by path, so that the choice is the same on every machine. Hidden folders
// (.git, __MACOSX) are not searched.
SubmittedFile find_submitted_file(const std::filesystem::path& dir, const PuzzleSpec& puzzle);

// What a grader should know about the choice, in one line: a near name graded, or the other candidates
// left out; empty when one file had the exact name. Paths relative to `dir`.
std::string file_note(const SubmittedFile& file, const PuzzleSpec& puzzle, const std::filesystem::path& dir);

// The .cu files under `dir` that are no puzzle's, for saying why nothing was graded.
std::vector<std::filesystem::path> unmatched_cuda_files(const std::filesystem::path& dir);

}  // namespace puzzle::cli
