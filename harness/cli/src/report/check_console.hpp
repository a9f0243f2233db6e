// `puzzle check` on the console: a header, the build, one line per case, details of what failed,
// the program's own output, and a PASSED/FAILED line.
#pragma once
#include <filesystem>
#include <ostream>
#include <set>
#include <string>

#include "model/check_report.hpp"
#include "report/style.hpp"

namespace puzzle::cli {

class ConsoleReport {
 public:
  ConsoleReport(std::ostream& out, Style style, bool verbose, std::filesystem::path base_dir)
      : out_(out), style_(style), verbose_(verbose), base_dir_(std::move(base_dir)) {}

  void header(const CheckReport& report);  // puzzle, file, backend, seed
  void build(const PuzzleReport& puzzle);
  void running(const std::string& what);
  void results(const CheckReport& report);  // after the run: cases, details, output, summary

 private:
  void case_line(const CaseReport& c, size_t name_width, size_t shape_width,
                 const std::set<std::string>& shared_notes);
  void case_details(const CaseReport& c);
  void scratch_line(const PuzzleReport& p);
  void program_output(const std::string& name, const std::string& text);
  void summary(const PuzzleReport& puzzle);
  void not_started(const PuzzleReport& puzzle);  // every case launched no kernel: said once
  // `text` with its source paths relative to base_dir_, a bare file name it also gives in full made so too.
  std::string relative_paths(const std::string& text) const;
  std::string shown(const std::filesystem::path& file) const;  // relative to base_dir_ when inside it

  std::ostream& out_;
  Style style_;
  bool verbose_;
  std::filesystem::path base_dir_;
};

}  // namespace puzzle::cli
