// Everything `puzzle check` found out, for the console, the JSON report and progress.json.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/speed_estimate.hpp"
#include "registry.hpp"
#include "verdict.hpp"

namespace puzzle::cli {

enum class Backend { sim, gpu };
const char* to_string(Backend b);  // "sim", "gpu"

struct DeviceInfo {
  std::string name;  // "CPU simulator" on the simulator
  std::optional<std::string> compute_capability;
  std::optional<double> copy_gbps;  // device-to-device copy bandwidth, read + write
};

enum class SourceKind { learner, solution, baseline, file };  // puzzles/, a solution, baselines/, --file
const char* to_string(SourceKind s);

enum class PuzzleStatus { passed, failed, compile_error, crashed, timeout };
const char* to_string(PuzzleStatus s);

struct BuildInfo {
  bool ok = false;
  bool cached = false;  // an earlier build of the same source and flags was reused
  double seconds = 0;
  std::string log;                    // the compilers' output
  std::string message;                // one line, e.g. "your file must define void row_softmax(...)"
  std::vector<std::string> commands;  // as run, for --verbose
  // The CUDA front end that also compiled the file ("nvcc": every GPU build, and simulator builds where
  // nvcc is installed; else "clang"); empty when none did (not checked against CUDA's rules:
  // compile/cuda_front_end.hpp).
  std::string cuda_rules;
};

// What the reports say of a build that no CUDA front end checked.
inline constexpr const char* kNotCheckedAgainstCuda =
    "not checked against CUDA's rules: no CUDA front end compiled it (`puzzle doctor` says why), so a "
    "file that a GPU build rejects may still pass here";

struct CaseReport {
  int index = -1;     // in the puzzle's case list
  CaseResult result;  // result.notes: simulator warnings, traffic, why timing is missing, ...
  std::optional<double> solution_tflops;
  bool needs_gpu = false;  // skipped on the simulator: not part of this check's score
  // The time was below what the device can do (device_peaks.hpp): no speed figure, no speed points.
  bool implausible_time = false;
  std::optional<SpeedEstimate> estimate;  // the simulator's, for a timed case it could not time
};

struct PuzzleReport {
  const PuzzleSpec* spec = nullptr;
  std::filesystem::path file;
  SourceKind source = SourceKind::learner;
  PuzzleStatus status = PuzzleStatus::failed;
  int score = 0, max_score = 0;
  BuildInfo build;
  std::vector<CaseReport> cases;               // in the puzzle's order, the filtered-out ones left out
  std::string program_stdout, program_stderr;  // what the child printed (the learner's printf, ...)
};

struct CheckReport {
  std::string command;  // as typed
  std::string created;  // ISO 8601, UTC
  std::optional<Backend> backend;
  std::string backend_reason;  // "no GPU found", "--backend sim", ...
  DeviceInfo device;
  uint64_t seed = 0;
  std::vector<PuzzleReport> puzzles;
  int exit_code = 0;
  std::string error;  // a usage or environment error that stopped the check; empty otherwise
};

int passed_cases(const PuzzleReport& p);
int counted_cases(const PuzzleReport& p);    // the cases this check was meant to judge (not "needs a GPU")
std::string shape_of(const Params& params);  // "cols=129 rows=127"

// The reading of a failed case a console shows as its one "why": the puzzle's own diagnosis (the last, the
// most specific), else the CUDA error, else the last shared one; nullptr when there is none. Simulator
// findings (sim_*) are shown apart, with their file and line.
const Diagnosis* most_specific_diagnosis(const CaseResult& result);
// Whether every case the check ran failed because the launcher launched no kernel: an untouched stub.
bool nothing_launched(const PuzzleReport& p);

}  // namespace puzzle::cli
