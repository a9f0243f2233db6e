// Everything `puzzle bench` found out, for the console, the JSON file and the chart.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "check_report.hpp"

namespace puzzle::cli {

// One kernel on one shape. No time means `problem` says why.
struct BenchTiming {
  std::optional<double> time_ms;         // median over the reps
  std::optional<double> rate;            // GB/s or TFLOP/s, as BenchReport::metric says
  std::optional<uint64_t> memory_bytes;  // device memory the launcher allocated (peak)
  std::string problem;  // "out of memory", "crashed: ...", "left 512 of 4096 outputs unwritten"
};

struct BenchKernel {
  std::string label;  // "yours", "solution", "cuBLAS standard attention", the --file name, "1_clear" ...
  SourceKind source = SourceKind::learner;
  std::filesystem::path file;  // set before the run for a --file or a version of the ladder
  BuildInfo build;
  std::vector<BenchTiming> timings;  // one per BenchReport::shapes entry
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
  std::string metric;                          // "GB/s" (memory-bound puzzles) or "TFLOP/s"
  std::vector<const TestCase*> shapes;         // GPU: the timed shapes, from spec->sweep
  std::vector<BenchKernel> kernels;            // GPU: yours, the solution (or each version), the baseline
  std::string traffic_kernel;                  // simulator: the kernel whose traffic was counted
  std::vector<TrafficCase> traffic;            // simulator
  std::optional<std::filesystem::path> chart;  // the SVG written
  int exit_code = 0;
  std::string error;  // a usage or environment error that stopped the bench
};

}  // namespace puzzle::cli
