// Everything `puzzle bench` found out, for the console, the JSON file and the chart.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/check_report.hpp"

namespace puzzle::cli {

// One kernel on one shape. No time means `problem` says why.
struct BenchTiming {
  std::optional<double> time_ms;         // median over the reps
  std::optional<double> rate;            // GB/s or TFLOP/s, as BenchReport::metric says
  std::optional<uint64_t> memory_bytes;  // device memory the launcher held (peak)
  std::string problem;    // "out of memory", "crashed: ...", "left 512 of 4096 outputs unwritten"
  bool at_least = false;  // the simulator's estimate, a lower bound (a block stopped at its budget)
};

struct BenchKernel {
  std::string label;  // "yours", "solution", "cuBLAS standard attention", the --file name, "1_clear" ...
  SourceKind source = SourceKind::learner;
  std::filesystem::path file;  // set before the run for a --file or a version of the ladder
  BuildInfo build;
  std::vector<BenchTiming> timings;  // one per BenchReport::shapes entry
};

// PyTorch on the same shapes, timed the same way (baselines/torch_bench.py, in a process of its own): what a
// learner would call instead of the puzzle. A column per op ("torch.softmax") or SDPA backend ("SDPA
// flash", ...); a shape a backend refuses has the problem "n/a: <why>".
struct TorchColumn {
  std::string label;
  std::vector<BenchTiming> timings;  // one per BenchReport::shapes entry
};
struct TorchColumns {
  std::string absent;  // why there are none: "not importable (ModuleNotFoundError)", "no CUDA device", ...
  std::string version, device;  // torch's, when there are
  std::vector<TorchColumn> columns;
};

// The simulator's stand-in for a timing: bytes each buffer moved on one of the puzzle's test cases.
struct TrafficBuffer {
  std::string label;  // "x", "y", "scratch ..."
  uint64_t size = 0, bytes_read = 0, bytes_written = 0;
};
struct TrafficCase {
  std::string name;
  std::string status;  // "passed", "failed", "crashed", ... from judging its outputs as check does
  std::vector<TrafficBuffer> buffers;
  double minimum_bytes = 0;  // what a kernel that reads each input once and writes each output once moves
};

struct BenchReport {
  std::string command, created;
  const PuzzleSpec* spec = nullptr;
  std::optional<Backend> backend;
  std::string backend_reason;
  DeviceInfo device;
  std::string metric;                   // "GB/s" (memory-bound puzzles) or "TFLOP/s"
  std::vector<const TestCase*> shapes;  // the timed shapes, from spec->sweep
  std::vector<BenchKernel> kernels;     // yours, the solution (or each version), the baseline (GPU)
  std::string estimated_on;          // simulator: the GPU whose times the kernels' timings estimate ("H100")
  TorchColumns torch;                // GPU: PyTorch beside them
  std::string traffic_kernel;        // simulator: the kernel whose traffic was counted
  std::vector<TrafficCase> traffic;  // simulator, without --shape or --ladder
  std::optional<std::filesystem::path> chart;  // the SVG written
  int exit_code = 0;
  std::string error;  // a usage or environment error that stopped the bench
};

// Every column of figures, ours first, then PyTorch's: what the table, the chart and the JSON draw.
struct BenchSeries {
  const std::string& label;
  const std::vector<BenchTiming>& timings;
  bool torch;
};
inline std::vector<BenchSeries> bench_series(const BenchReport& report) {
  std::vector<BenchSeries> series;
  for (const BenchKernel& k : report.kernels) series.push_back({k.label, k.timings, false});
  for (const TorchColumn& c : report.torch.columns) series.push_back({c.label, c.timings, true});
  return series;
}

}  // namespace puzzle::cli
