// The simulator's counts for the speed estimate: the child run with an estimate job (protocol::Job::estimate)
// on timed cases or bench shapes, which it runs on unfilled buffers, a sample of each launch's blocks.
#pragma once
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stop_token>
#include <vector>

namespace puzzle::cli {

struct EstimateRun {
  std::map<int, nlohmann::json> reports;  // by index: the case's sim report, with "work"
  std::map<int, std::string> problems;    // by index: why there is no report ("crashed: ...")
};

// `sweep`: the indices are of the puzzle's bench shapes, else of its cases.
EstimateRun run_estimate(const std::filesystem::path& child, int puzzle, const std::vector<int>& indices,
                         bool sweep, std::chrono::milliseconds timeout,
                         std::optional<std::chrono::steady_clock::time_point> deadline = {},
                         std::stop_token stop = {});

}  // namespace puzzle::cli
