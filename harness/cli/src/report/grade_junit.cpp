#include "report/grade_junit.hpp"

#include <sstream>

#include "report/grade_text.hpp"
#include "report/text_format.hpp"

namespace puzzle::cli {
namespace {

constexpr size_t kMaxBodyBytes = 16 * 1024;  // per failure text

std::string seconds_attr(double s) {
  return fixed(s, 3);
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};

class SuiteWriter {
 public:
  void test(const std::string& classname, const std::string& name, std::optional<double> seconds,
            const std::string& outcome_xml) {
    ++counts_.tests;
    body_ << "    <testcase classname=\"" << xml_escaped(classname) << "\" name=\"" << xml_escaped(name)
          << "\"";
    if (seconds) body_ << " time=\"" << seconds_attr(*seconds) << "\"";
    body_ << (outcome_xml.empty() ? "/>\n" : ">\n      " + outcome_xml + "\n    </testcase>\n");
  }
  std::string outcome(const char* element, const std::string& message, const std::string& type,
                      const std::string& text) {
    ++(std::string(element) == "failure" ? counts_.failures : counts_.errors);
    return std::string("<") + element + " message=\"" + xml_escaped(message) + "\" type=\"" + type + "\">" +
           xml_escaped(clipped_text(text, kMaxBodyBytes)) + "</" + element + ">";
  }
  std::string skipped(const std::string& message) {
    ++counts_.skipped;
    return "<skipped message=\"" + xml_escaped(message) + "\"/>";
  }
  const Counts& counts() const { return counts_; }
  std::string body() const { return body_.str(); }

 private:
  Counts counts_;
  std::ostringstream body_;
};

std::string case_outcome(SuiteWriter& w, const CaseReport& c) {
  const CaseResult& r = c.result;
  switch (r.status) {
    case CaseStatus::passed:
      return "";
    case CaseStatus::failed:
      return w.outcome("failure", r.message, "failed", case_explanation(c));
    case CaseStatus::crashed:
    case CaseStatus::timeout:
      return w.outcome("error", r.message, to_string(r.status), case_explanation(c));
    case CaseStatus::skipped:
      return w.skipped(r.message);
  }
  return "";
}

std::string build_outcome(SuiteWriter& w, const GradedPuzzle& p) {
  if (p.state != GradeState::graded)
    return w.outcome("failure", "not graded: " + p.reason, p.status(), p.reason);
  if (!p.report.build.ok)
    return w.outcome("failure", p.report.build.message, "compile_error", p.report.build.log);
  return "";
}

std::string property(const std::string& name, const std::string& value) {
  return "      <property name=\"" + xml_escaped(name) + "\" value=\"" + xml_escaped(value) + "\"/>\n";
}

}  // namespace

std::string junit_xml(const GradeReport& report) {
  Counts total;
  std::ostringstream suites;
  const std::string seed = seed_text(report);
  if (!report.run.error.empty()) {
    SuiteWriter w;
    w.test("puzzle.grade", "grade", std::nullopt,
           w.outcome("error", report.run.error, "grade_error", report.run.error));
    suites << "  <testsuite name=\"puzzle grade\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
           << w.body() << "  </testsuite>\n";
    total.tests += 1;
    total.errors += 1;
  }
  for (const GradedPuzzle& p : report.puzzles) {
    const PuzzleSpec& spec = *p.report.spec;
    const std::string classname =
        "puzzle." + std::string(spec.id < 10 ? "0" : "") + std::to_string(spec.id) + "_" + spec.slug;
    SuiteWriter w;
    w.test(classname, "build",
           p.state == GradeState::graded ? std::optional(p.report.build.seconds) : std::nullopt,
           build_outcome(w, p));
    for (const CaseReport& c : p.report.cases) {
      if (c.needs_gpu) continue;
      w.test(classname, "case " + c.result.name + " (" + shape_of(c.result.params) + ")", std::nullopt,
             case_outcome(w, c));
    }
    if (p.performance && p.performance->points < p.performance->max_points) {
      w.test(classname, "speed", std::nullopt,
             w.outcome("failure", p.performance->message, "slow", p.performance->message));
    } else if (p.performance) {
      w.test(classname, "speed", std::nullopt, "");
    }
    const Counts& c = w.counts();
    suites << "  <testsuite name=\"" << xml_escaped("puzzle " + std::to_string(spec.id) + ": " + spec.title)
           << "\" tests=\"" << c.tests << "\" failures=\"" << c.failures << "\" errors=\"" << c.errors
           << "\" skipped=\"" << c.skipped << "\" time=\"" << seconds_attr(p.seconds) << "\" timestamp=\""
           << xml_escaped(report.run.created) << "\">\n"
           << "    <properties>\n"
           << property("status", p.status()) << property("score", score_text(p.score()))
           << property("max_score", score_text(p.max_score())) << property("file", p.report.file.string())
           << property("seed", seed)
           << property("backend", report.run.backend ? to_string(*report.run.backend) : "none")
           << "    </properties>\n"
           << w.body() << "  </testsuite>\n";
    total.tests += c.tests;
    total.failures += c.failures;
    total.errors += c.errors;
    total.skipped += c.skipped;
  }
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"puzzle grade\" tests=\"" << total.tests << "\" failures=\"" << total.failures
      << "\" errors=\"" << total.errors << "\" skipped=\"" << total.skipped << "\" time=\""
      << seconds_attr(report.seconds) << "\">\n"
      << suites.str() << "</testsuites>\n";
  return xml.str();
}

}  // namespace puzzle::cli
