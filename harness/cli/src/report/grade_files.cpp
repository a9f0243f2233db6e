#include "report/grade_files.hpp"

#include "report/check_json.hpp"
#include "report/grade_gradescope.hpp"
#include "report/grade_json.hpp"
#include "report/grade_junit.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

// `write` throws on failure: the failure is noted, and the other reports are still written.
template <typename Write>
void write_one(const std::optional<std::filesystem::path>& file, Write write,
               std::vector<std::string>& failures) {
  if (!file) return;
  try {
    write(*file);
  } catch (const std::exception& e) {
    failures.push_back(file->string() + ": " + e.what());
  }
}

}  // namespace

std::vector<std::string> write_grade_reports(const GradeReportFiles& files, const GradeReport& report,
                                             const std::string& tool_version) {
  std::vector<std::string> failures;
  write_one(
      files.json, [&](const auto& file) { write_json_file(file, grade_to_json(report, tool_version)); },
      failures);
  write_one(
      files.gradescope, [&](const auto& file) { write_json_file(file, gradescope_results(report)); },
      failures);
  write_one(
      files.junit, [&](const auto& file) { write_atomically(file, junit_xml(report)); }, failures);
  return failures;
}

GradeReportFiles report_files_in(const std::vector<std::string>& argv) {
  GradeReportFiles files;
  const std::pair<const char*, std::optional<std::filesystem::path> GradeReportFiles::*> options[] = {
      {"--json", &GradeReportFiles::json},
      {"--gradescope", &GradeReportFiles::gradescope},
      {"--junit", &GradeReportFiles::junit}};
  for (size_t i = 0; i < argv.size(); ++i) {
    for (const auto& [name, member] : options) {
      const std::string prefix = std::string(name) + "=";
      if (argv[i] == name && i + 1 < argv.size() && !argv[i + 1].starts_with("-")) {
        files.*member = argv[i + 1];
      } else if (argv[i].starts_with(prefix) && argv[i].size() > prefix.size()) {
        files.*member = argv[i].substr(prefix.size());
      }
    }
  }
  return files;
}

}  // namespace puzzle::cli
