// `grade --junit FILE`: JUnit XML for CI systems. One <testsuite> per puzzle with a "build" test case and
// one test case per case: a wrong answer is a <failure>, a crash or a hang an <error>, a case not run
// <skipped>. Scores are <properties> (JUnit has no points).
#pragma once
#include <string>

#include "grade_report.hpp"

namespace puzzle::cli {

std::string junit_xml(const GradeReport& report);

// Text as XML character data or attribute value: markup escaped, and the characters XML 1.0 cannot hold
// at all (control characters such as a compiler's colour codes, invalid UTF-8) replaced by U+FFFD.
std::string xml_escaped(const std::string& text);

}  // namespace puzzle::cli
