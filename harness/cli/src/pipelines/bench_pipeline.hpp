// `puzzle bench` without the printing: on a GPU, time each kernel over the puzzle's bench shapes; on the
// simulator, count the memory traffic of the kernel on the largest test cases instead.
#pragma once
#include <functional>
#include <string>

#include "model/bench_report.hpp"
#include "model/build_config.hpp"
#include "model/options.hpp"

namespace puzzle::cli {

// Called as the bench goes, so that a console can show each step when it happens. Either may be empty.
struct BenchObserver {
  std::function<void(const BenchReport&)> started;         // backend, device and shapes are known
  std::function<void(const BenchKernel&)> kernel_started;  // built (or not), about to run
  std::function<void(const BenchReport&, const TestCase&, const BenchTiming&)> shape_timed;  // each shape
  std::function<void(const std::string& command)> torch_started;  // "python3 .../baselines/torch_bench.py"
  // Each shape of PyTorch's columns, as soon as its line comes (`shape` indexes report.shapes).
  std::function<void(const BenchReport&, const TestCase&, const TorchColumns&, size_t shape)>
      torch_shape_timed;
};

// Never throws: usage and environment errors end up in report.error and report.exit_code.
BenchReport run_bench(const BenchOptions& options, const std::string& command_text, const BuildConfig& config,
                      const BenchObserver& observer = {});

}  // namespace puzzle::cli
