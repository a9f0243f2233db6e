#include "junit_report.hpp"

#include <sstream>

#include "text_format.hpp"

namespace puzzle::cli {
namespace {

constexpr size_t kMaxBodyBytes = 16 * 1024;  // per failure text
constexpr const char* kReplacement = "\xEF\xBF\xBD";

// Length of the well-formed UTF-8 sequence starting at text[i] (Unicode table 3-7), or 0. Overlong
// forms, surrogates and code points above U+10FFFF are rejected: XML parsers refuse them.
size_t utf8_length(const std::string& text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return n;
}

// U+FFFE and U+FFFF are well-formed UTF-8 but not XML characters.
bool is_noncharacter(const std::string& text, size_t i) {
  return text.compare(i, 3, "\xEF\xBF\xBE") == 0 || text.compare(i, 3, "\xEF\xBF\xBF") == 0;
}

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

std::string xml_escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = utf8_length(text, i);
    if (n == 0 || (n == 3 && is_noncharacter(text, i))) {
      out += kReplacement;
      i += n == 0 ? 1 : n;
      continue;
    }
    if (n > 1) {
      out.append(text, i, n);
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
      out += kReplacement;
    } else {
      out += static_cast<char>(c);
    }
    i += n;
  }
  return out;
}

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
