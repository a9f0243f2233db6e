// The registers per thread and the stack frame of each kernel in a puzzle file, as nvcc's register
// allocator reports them (`nvcc -cubin -Xptxas -v`): what the speed estimate's occupancy and local memory
// need and the simulator cannot see.
// Only where nvcc is installed; cached under build/cache/resources/ by the file's content.
#pragma once
#include <stop_token>

#include "model/build_config.hpp"
#include "model/puzzle_source.hpp"
#include "time_model.hpp"

namespace puzzle::cli {

// Each kernel under its name with its template arguments ("flash_kernel<64>") and under its bare name
// (the most of its instantiations); empty without nvcc, when nvcc fails (the estimate then assumes), or
// when `stop` is requested (nvcc is then killed: a check whose kernel failed needs no estimate).
perf::KernelResources kernel_resources(const BuildConfig& config, const PuzzleSpec& puzzle,
                                       const PuzzleSource& source, std::stop_token stop = {});

// Keeps what the CUDA front end's nvcc compile reported (cuda_front_end.hpp) as `source`'s resources: that
// compile is the GPU build's, so kernel_resources then needs no compile of its own.
void store_kernel_resources(const BuildConfig& config, const PuzzleSpec& puzzle, const PuzzleSource& source,
                            const std::string& ptxas_report);

// What ptxas's `-v` output says (mangled names demangled), for the function above and its tests.
perf::KernelResources parse_ptxas_resources(const std::string& output);

}  // namespace puzzle::cli
