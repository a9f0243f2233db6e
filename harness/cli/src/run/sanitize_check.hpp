// `check --sanitize`: the cases run once more under NVIDIA's compute-sanitizer (memcheck, then racecheck,
// then synccheck), on a GPU; its findings are reported in our own format (sanitizer_output.hpp). The
// simulator finds the same kinds of bug by itself, so without a GPU there is nothing to add.
#pragma once
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "model/build_config.hpp"
#include "model/check_report.hpp"
#include "model/options.hpp"
#include "report/style.hpp"
#include "run/sanitizer_output.hpp"

namespace puzzle::cli {

inline constexpr const char* kSanitizerTools[] = {"memcheck", "racecheck", "synccheck"};

struct SanitizerRun {
  std::string tool;
  SanitizerOutput output;
  std::string problem;  // when the tool did not finish: "timed out", "compute-sanitizer failed: ..."
};

// Before anything runs: compute-sanitizer's path, or an error that says what is missing: UsageError for
// --backend sim, EnvironmentError without a GPU or without compute-sanitizer.
std::filesystem::path require_sanitizer(const BuildConfig& config, BackendRequest backend);

// Each tool over the puzzle's small cases (those that also run on the simulator: the sanitizer is slow).
std::vector<SanitizerRun> run_sanitizers(const std::filesystem::path& sanitizer,
                                         const std::filesystem::path& child, const PuzzleSpec& puzzle,
                                         uint64_t seed, std::chrono::milliseconds case_timeout);

int sanitizer_errors(const std::vector<SanitizerRun>& runs);  // findings, counts included, or the summaries'

// The runs' verdict on a check that passed: errors fail it (its status and exit code, so that the JSON
// report says so too); a tool that did not finish checked nothing, so the exit code says the check is
// incomplete. A check that already failed keeps its own verdict.
void apply_sanitizer_verdict(const std::vector<SanitizerRun>& runs, CheckReport& report);
void print_sanitizer_runs(const std::vector<SanitizerRun>& runs, Style style, std::ostream& out);
nlohmann::json sanitizer_json(const std::vector<SanitizerRun>& runs);

}  // namespace puzzle::cli
