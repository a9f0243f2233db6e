// The machine-readable report of `puzzle check --json FILE` (described in docs/report-format.md).
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>

#include "model/check_report.hpp"

namespace puzzle::cli {

inline constexpr int kReportSchemaVersion = 1;

nlohmann::json report_to_json(const CheckReport& report, const std::string& tool_version);

// Atomically (temporary file + rename): a reader never sees half a report.
void write_json_report(const std::filesystem::path& file, const CheckReport& report,
                       const std::string& tool_version);

// Any report of ours, atomically; text that is not UTF-8 (a learner's printf of raw bytes) is replaced
// rather than failing the write.
void write_json_file(const std::filesystem::path& file, const nlohmann::json& json);

}  // namespace puzzle::cli
