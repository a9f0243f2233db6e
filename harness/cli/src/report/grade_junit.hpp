// `grade --junit FILE`: JUnit XML for CI systems. One <testsuite> per puzzle with a "build" test case and
// one test case per case: a wrong answer is a <failure>, a crash or a hang an <error>, a case not run
// <skipped>. Scores are <properties> (JUnit has no points).
#pragma once
#include <string>

#include "model/grade_report.hpp"
#include "report/xml_text.hpp"

namespace puzzle::cli {

std::string junit_xml(const GradeReport& report);

}  // namespace puzzle::cli
