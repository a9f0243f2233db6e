// What each command was asked to do: the options `puzzle check|bench|grade|hint|reset` take, as plain
// structs that the command line fills (commands/command_line.hpp) and the stages read.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace puzzle::cli {

enum class BackendRequest { automatic, sim, gpu };

struct CheckOptions {
  std::string puzzle;  // as typed: "1", "01" or "row_softmax"
  BackendRequest backend = BackendRequest::automatic;
  std::optional<uint64_t> seed;  // random when absent
  bool solution = false;  // check the clear solution (solutions/NN_slug/1_clear.cu), not puzzles/<file>
  std::optional<std::filesystem::path> file;
  std::optional<std::filesystem::path> json;
  std::optional<double> timeout_s;  // per case; the backend's default when absent
  std::vector<std::string> cases;   // only these (by name); all when empty
  bool timed = false;               // only the timed cases (a GPU times them, the simulator estimates them)
  bool verbose = false;
  bool sanitize = false;  // also run the cases under compute-sanitizer (a GPU only)
  bool api_check = true;  // refuse a file that uses process, file or exit APIs (api_check.hpp)
  std::optional<std::chrono::steady_clock::time_point> deadline;  // grade's time budget: stop running then
  std::string gpu;  // the GPU the simulator's speed estimate is for ("h100", "h200"); the H100 when empty
  // The simulator's speed estimate of the timed cases: a grade without --perf-points scores no speed, and
  // on a fresh machine (a Gradescope container) the estimates of every puzzle's file and solution took
  // more of the time budget than the cases. `check --no-estimate` leaves it out too.
  bool estimate_speed = true;
};

struct BenchOptions {
  std::string puzzle;
  BackendRequest backend = BackendRequest::automatic;
  bool solution = false;  // time the reference solution (and baseline) only, not puzzles/<file>
  bool ladder = false;    // time every version of the solution ladder (and the baseline), one column each
  std::optional<std::filesystem::path> file;
  std::optional<std::filesystem::path> json;
  std::optional<std::filesystem::path> svg;  // the chart; .puzzle/bench_<NN>.svg when absent
  std::optional<double> timeout_s;           // per shape and kernel
  std::vector<std::string> shapes;           // only these (by name); all when empty
  bool torch = true;                         // PyTorch's columns, where torch and a CUDA device answer
  bool verbose = false;
  std::string gpu;  // the simulator estimates the times on this GPU ("h100", "h200"); the H100 when empty
};

struct HintOptions {
  std::string puzzle;
  std::optional<int> level;  // the next one when absent
};

struct GradeOptions {
  BackendRequest backend = BackendRequest::automatic;
  std::optional<std::filesystem::path> submission;  // a folder of puzzle files; puzzles/ when absent
  std::string puzzles;                              // "1,3-5"; every puzzle when empty
  std::optional<std::filesystem::path> course;      // "PUZZLE POINTS" lines: the puzzles and their worth
  std::string weights;                              // "1=10,3=20": the same on the command line
  // A class: a folder of one folder per student, or a roster file of "NAME FOLDER" lines; each student
  // graded like a submission, `jobs` at a time, their reports and the gradebook written under `out`.
  std::optional<std::filesystem::path> class_dir, roster;
  std::filesystem::path out = "grades";
  int jobs = 0;                  // students graded at once; 0: one per core
  std::optional<uint64_t> seed;  // else the grader's secret seed, else a fixed one
  std::optional<std::filesystem::path> secret_seed_file;
  std::optional<std::filesystem::path> json, gradescope, junit;
  std::optional<double> timeout_s;      // per case; the backend's default when absent
  std::optional<double> time_budget_s;  // for the whole grade; unlimited when absent
  int perf_points = 0;  // per puzzle, for speed relative to the solution (on the simulator: estimated)
  std::string gpu;      // the simulator's estimate is for this GPU ("h100", "h200"); the H100 when empty
};

struct ResetOptions {
  std::string puzzle;
  bool undo = false;  // put the newest backup back instead
};

}  // namespace puzzle::cli
