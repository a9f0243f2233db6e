// Running baselines/torch_bench.py for `puzzle bench`'s PyTorch columns: in a process of its own (never the
// child that runs the learner's code), the request on its stdin, its answer read line by line.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "registry.hpp"

namespace puzzle::cli {

// The interpreter: $PUZZLE_PYTHON when set (a test points it at a stub), else python3 from the PATH.
std::string torch_python();

// torch_bench.py's op for the puzzle's judge ("softmax", "attention_forward", "attention_backward"; a
// 16-bit judge is its op in the puzzle's dtype), or "" where it has none (the products: cuBLAS is what
// torch.matmul calls).
std::string torch_op(const PuzzleSpec& spec);

// What the script reads: torch_op, the dtype of the puzzle's first input, the shapes by the bench's names
// with their sizes, and the child's warm-up, repetitions and timing budget (protocol::Job,
// harness/child/bench.cpp).
nlohmann::json torch_request(const PuzzleSpec& spec, const std::vector<const TestCase*>& shapes);

// Runs `python script` with the request on stdin, handing each line it prints to `line_printed` as it
// comes. Each line restarts `line_timeout` (a line per shape; the first after torch's import). Returns
// why the run failed, in a few words ("cannot run python3: No such file or directory", "torch_bench.py
// did not answer in 120 s", "torch_bench.py ended with exit code 1: RuntimeError: ..."), or "" when it
// exited with code 0.
std::string run_torch_script(const std::filesystem::path& script, const nlohmann::json& request,
                             std::chrono::milliseconds line_timeout,
                             const std::function<void(const std::string&)>& line_printed);

}  // namespace puzzle::cli
