// `puzzle bench` on the console: the device, one line per kernel as it is built, then the table (GPU) or
// the traffic counts (simulator).
#pragma once
#include <ostream>

#include "model/bench_report.hpp"
#include "report/style.hpp"

namespace puzzle::cli {

void print_bench_header(std::ostream& out, Style style, const BenchReport& report);
void print_bench_kernel(std::ostream& out, Style style, const BenchKernel& kernel, bool verbose);
// One shape of the kernel being timed, as soon as it is done (the whole table comes at the end).
void print_bench_shape(std::ostream& out, Style style, const BenchReport& report, const TestCase& shape,
                       const BenchTiming& timing);
// PyTorch's columns: the script started, then each shape as soon as its line comes.
void print_bench_torch(std::ostream& out, const std::string& command);
void print_bench_torch_shape(std::ostream& out, Style style, const BenchReport& report, const TestCase& shape,
                             const TorchColumns& torch, size_t index);
void print_bench_results(std::ostream& out, Style style, const BenchReport& report);

}  // namespace puzzle::cli
