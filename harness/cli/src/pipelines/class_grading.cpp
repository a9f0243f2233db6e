#include "pipelines/class_grading.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <sstream>
#include <thread>

#include "pipelines/check_pipeline.hpp"
#include "pipelines/grade_pipeline.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;

std::vector<Student> folders_of(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw UsageError("--class: " + dir.string() + " is not a folder");
  std::vector<Student> students;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory(ec) && !name.starts_with(".") && name != "__MACOSX")
      students.push_back({.name = name, .folder = entry.path()});
  }
  std::sort(students.begin(), students.end(),
            [](const Student& a, const Student& b) { return a.name < b.name; });
  if (students.empty()) throw UsageError("nothing to grade: " + dir.string() + " has no student folder");
  return students;
}

std::vector<Student> roster_of(const fs::path& file) {
  const auto text = read_text(file);
  if (!text) throw UsageError("--roster: cannot read " + file.string());
  std::vector<Student> students;
  std::istringstream lines(*text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::istringstream words(line.substr(0, line.find('#')));
    std::string first, second;
    if (!(words >> first)) continue;
    const bool named = static_cast<bool>(words >> second);
    const fs::path folder = file.parent_path() / (named ? second : first);
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      throw UsageError(file.string() + ":" + std::to_string(number) + ": no folder " + folder.string());
    }
    students.push_back({.name = named ? first : folder.filename().string(), .folder = folder});
  }
  if (students.empty())
    throw UsageError("nothing to grade: the roster " + file.string() + " names no student");
  return students;
}

}  // namespace

std::vector<Student> class_students(const GradeOptions& options) {
  if (options.class_dir && options.roster)
    throw UsageError("--class and --roster both name the class; give one");
  return options.class_dir ? folders_of(*options.class_dir) : roster_of(*options.roster);
}

ClassReport grade_class(const GradeOptions& options, const std::string& command_text,
                        const BuildConfig& config, const SecretSeedSources& secret,
                        const ClassObserver& observer) {
  ClassReport report{.command = command_text, .created = utc_now()};
  const auto start = std::chrono::steady_clock::now();
  report_errors(report, [&] {
    for (Student& s : class_students(options)) report.students.push_back({.student = std::move(s)});
    const size_t jobs = std::clamp<size_t>(
        options.jobs > 0 ? options.jobs : std::thread::hardware_concurrency(), 1, report.students.size());
    if (observer.started) observer.started(report, jobs);
    std::atomic<size_t> next{0};
    std::mutex mutex;
    size_t finished = 0;
    const auto work = [&] {
      for (size_t i = next++; i < report.students.size(); i = next++) {
        GradeOptions own = options;
        own.submission = report.students[i].student.folder;
        GradeReport graded = run_grade(own, command_text, config, secret);
        const std::lock_guard lock(mutex);
        report.students[i].report = std::move(graded);
        ++finished;
        if (observer.student_done) observer.student_done(report, i, finished);
      }
    };
    std::vector<std::thread> workers;
    for (size_t j = 1; j < jobs; ++j) workers.emplace_back(work);
    work();
    for (std::thread& t : workers) t.join();
    // A student's usage error (a bad course file) or environment error (no compiler) is every student's.
    for (const StudentGrade& s : report.students) {
      if (s.report.run.exit_code != kExitPassed && !s.report.found_no_file()) {
        report.error = s.report.run.error;
        report.exit_code = s.report.run.exit_code;
        break;
      }
    }
    if (report.error.empty() && report.nothing_graded()) {
      const GradeReport& first = report.students.front().report;
      report.error = "nothing to grade: no student's folder has a puzzle file (" +
                     first.puzzles.front().report.spec->file + (first.puzzles.size() > 1 ? ", ..." : "") +
                     ")";
      report.exit_code = kExitUsage;
    }
  });
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace puzzle::cli
