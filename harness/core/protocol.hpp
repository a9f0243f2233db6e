// How the parent and the child talk: files in a work directory (see docs/architecture.md).
#pragma once
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "registry.hpp"
#include "seal.hpp"

namespace puzzle::protocol {

// Every output buffer is surrounded by guard zones; 4096 floats cover a tail block of 1024 threads
// writing a few rows past the end.
inline constexpr int64_t kGuardElems = 4096;
// Quiet-NaN payloads that arithmetic never produces, so "still poison" means "never written".
inline constexpr uint32_t kPoisonBits = 0x7FC0FFEEu;  // output elements before the launcher runs
inline constexpr uint32_t kGuardBits = 0x7FC0DEADu;   // guard zones around each output buffer

// What the timed runs of one case may take together (harness/child/bench.cpp; baselines/torch_bench.py
// gets it too): well inside the default case timeout (10 s), which also covers the correctness run. A
// kernel slower than budget / reps gets fewer runs.
inline constexpr float kTimingBudgetMs = 2000;

struct Job {
  int puzzle = 0;
  uint64_t seed = 0;
  // "check": run cases once; "bench": also time the perf cases (GPU only); "sweep": time the puzzle's
  // bench shapes (GPU only), keeping no outputs: `puzzle bench` only counts the unwritten ones.
  std::string mode = "check";
  std::vector<int> cases;  // indices into the puzzle's case list (its sweep list in "sweep" mode)
  int warmup = 3;
  int reps = 20;
  std::string backend;  // "sim" | "gpu": the child refuses a job meant for the other backend; empty: any
  // The parent draws the inputs and writes them for the child (input_path), each case's once its
  // inputs_ready_path exists; otherwise the child draws them itself (the same values: case_data.hpp).
  bool inputs_from_parent = false;
  // The simulator's speed estimate (docs/simulator.md, "Estimated speed"): the cases (or, in "sweep" mode,
  // the shapes) run on buffers that are allocated but never filled, a sample of each launch's blocks with
  // their work counted; the record's "sim" report then holds "work" per launch, and no outputs are kept.
  bool estimate = false;
};
void to_json(nlohmann::json& j, const Job& job);
void from_json(const nlohmann::json& j, Job& job);

std::filesystem::path job_path(const std::filesystem::path& dir);       // job.json
std::filesystem::path progress_path(const std::filesystem::path& dir);  // progress.jsonl
std::filesystem::path output_path(const std::filesystem::path& dir, int case_index, int buffer);
std::filesystem::path input_path(const std::filesystem::path& dir, int case_index, int buffer);
std::filesystem::path inputs_ready_path(const std::filesystem::path& dir, int case_index);  // written last
std::filesystem::path inputs_failed_path(const std::filesystem::path& dir);  // the parent could not draw them

// Per-case record the child appends as {"event":"done","case":i, ...}. Optional parts are absent
// when they do not apply. "sim" holds the simulator's report:
//   {"findings": [{"severity", "kind", "message", "file", "line", "block": [x,y,z], "thread": [x,y,z],
//                  "count"}],
//    "traffic": [{"label", "size", "bytes_read", "bytes_written"}],
//    "launches": [{"kernel", "grid": [x,y,z], "block": [x,y,z], "dynamic_shared", "static_shared",
//                  "file", "line", "error"}],
//    "scratch_peak_bytes", "scratch_live_bytes", "scratch_allocated_bytes", "context_switches",
//    "simulated_threads",
//    "work": [per launch of an estimate: sim::harness::LaunchWork's fields]}
inline constexpr uint64_t kUnknownBytes = UINT64_MAX;

struct CaseRecord {
  int case_index = -1;
  std::string launch_error;      // CUDA error after the launcher (name: message), empty if none
  int64_t inputs_modified = 0;   // input elements that differ after the run
  double time_ms = -1;           // median over reps (bench mode on a GPU), else -1
  std::vector<double> times_ms;  // every rep, for the report
  // Device memory the launcher held at its peak (cudaMalloc; earlier calls' buffers not freed yet included),
  // if known: the reported figure.
  uint64_t scratch_bytes = kUnknownBytes;
  // The peak of what this call allocated itself, if known: the scratch budget's figure, which a workspace
  // kept from an earlier, larger case must not fail.
  uint64_t scratch_allocated_bytes = kUnknownBytes;
  int64_t outputs_unwritten = -1;  // sweep mode: output elements still holding the poison
  nlohmann::json sim;              // null on the GPU
  // What the learner's code did besides computing (device_work.hpp): kernels launched, copies refused.
  int64_t kernel_launches = -1;           // -1: not counted (an older child)
  std::vector<std::string> refused;       // one line per refused call, e.g. a copy into an output
  std::vector<std::string> output_seals;  // seal() of each output file, in buffer order
};
void to_json(nlohmann::json& j, const CaseRecord& r);  // the whole done line, "event" included
void from_json(const nlohmann::json& j, CaseRecord& r);

// Child side: append one line and flush it to disk before going on.
void append_line(const std::filesystem::path& file, const nlohmann::json& line);
// The whole lines written so far, as text (a torn last line from a crash is ignored).
std::vector<std::string> read_raw_lines(const std::filesystem::path& file);
// Their JSON, unverified: for tests and tools that read a progress file the harness wrote.
std::vector<nlohmann::json> read_lines(const std::filesystem::path& file);

// The child's progress file: every line is `JSON<TAB>SEAL`, where the JSON holds "seq" (0, 1, 2, ...
// within one process) and SEAL is seal(key, JSON). The last line of a run is {"event":"end"}.
class ProgressWriter {
 public:
  ProgressWriter(std::filesystem::path file, SessionKey key) : file_(std::move(file)), key_(key) {}
  void append(nlohmann::json line);
  const SessionKey& key() const { return key_; }

 private:
  std::filesystem::path file_;
  SessionKey key_;
  int64_t next_seq_ = 0;
};

// Parent side: the JSON of `raw` if it is line number `seq` sealed with `key`; else why not, in `problem`.
struct CheckedLine {
  nlohmann::json line;
  std::string problem;  // empty when the line is genuine
};
CheckedLine check_line(const std::string& raw, const SessionKey& key, int64_t seq);

// Raw float32 files: [guard][data][guard].
void write_floats(const std::filesystem::path& file, const float* data, int64_t count);
// Empty when the file does not exist: after a sticky CUDA error the child cannot copy outputs back.
std::vector<float> read_floats(const std::filesystem::path& file);
// Exactly `count` floats into `data`; throws when the file is missing or holds another number.
void read_floats_into(const std::filesystem::path& file, float* data, int64_t count);
// The first `bytes` of `file` into `data`, in pieces on every core: pread shares the file, and a 256 MB
// output read on one core took a tenth of a second. Throws when the file is shorter or unreadable.
void read_bytes(const std::filesystem::path& file, char* data, int64_t bytes);

}  // namespace puzzle::protocol
