// `puzzle bench`'s PyTorch columns: baselines/torch_bench.py run after the kernels, on the same shapes, and
// its answer read as it comes. Never fails the bench: whatever goes wrong becomes the one-line reason why
// the columns are absent (or a shape's problem).
#pragma once
#include <chrono>

#include "pipelines/bench_pipeline.hpp"

namespace puzzle::cli {

TorchColumns time_torch(const BenchReport& report, const BenchOptions& options, const BuildConfig& config,
                        std::chrono::milliseconds shape_timeout, const BenchObserver& observer);

}  // namespace puzzle::cli
