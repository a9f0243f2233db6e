#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <sstream>

#include "commands/commands.hpp"
#include "grade_fixture.hpp"
#include "model/build_config.hpp"
#include "report/grade_files.hpp"
#include "report/grade_gradescope.hpp"
#include "report/grade_json.hpp"
#include "report/grade_junit.hpp"
#include "report/grade_text.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using nlohmann::json;

namespace {

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Whether text is UTF-8 of XML 1.0 characters only, by decoding each code point (independent of the
// table-driven check in grade_junit.cpp).
bool is_xml_text(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const size_t n = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (n == 0 || n > 4 || lead >= 0xF8 || i + n > text.size()) return false;
    uint32_t cp = n == 1 ? lead : lead & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
      if ((byte(i + k) & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    const uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF || cp == 0xFFFE || cp == 0xFFFF)
      return false;
    if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') return false;
    i += n;
  }
  return true;
}

}  // namespace

TEST_CASE("grade scores: the cases' points, the speed part, totals over the puzzles") {
  GradeReport grade = testing::fixture_grade();
  CHECK(grade.puzzles[0].score() == 1);
  CHECK(grade.puzzles[0].max_score() == 2);
  CHECK(grade.puzzles[1].status() == "missing");
  CHECK(grade.score() == 1);
  CHECK(grade.max_score() == 5);
  grade.puzzles[0].performance = PerformancePart{.points = 1.5, .max_points = 4};
  CHECK(grade.score() == 2.5);
  CHECK(grade.max_score() == 9);
  CHECK(score_text(2.5) == "2.5");
  CHECK(score_text(3.0) == "3");
}

TEST_CASE("our JSON: the check report's fields, the grade's own, and not-graded puzzles marked so") {
  const GradeReport grade = testing::fixture_grade();
  const json j = grade_to_json(grade, "9.9.9");
  CHECK(j["kind"] == "grade");
  CHECK(j["version"] == "9.9.9");
  CHECK(j["complete"] == true);
  CHECK(j["score"] == 1);
  CHECK(j["max_score"] == 5);
  CHECK(j["seed"] == 42);
  CHECK(j["seed_source"] == "fixed");
  CHECK(j["submission"] == "/submissions/alice");
  REQUIRE(j["puzzles"].size() == 2);
  CHECK(j["puzzles"][0]["status"] == "failed");
  CHECK(j["puzzles"][0]["seconds"] == 2.5);
  CHECK(j["puzzles"][0]["not_graded_reason"].is_null());
  CHECK(j["puzzles"][0]["cases"].size() == 3);
  CHECK(j["puzzles"][1]["status"] == "missing");
  CHECK(j["puzzles"][1]["max_score"] == 3);
  CHECK(j["puzzles"][1]["not_graded_reason"] == grade.puzzles[1].reason);
}

TEST_CASE("Gradescope: a build test and a test per counted case per puzzle graded, one for a missing one") {
  const GradeReport grade = testing::fixture_grade();
  const json r = gradescope_results(grade);
  CHECK(r["score"] == 1);
  CHECK(r["execution_time"] == 4);  // 3.25 s, rounded up
  CHECK(r["stdout_visibility"] == "hidden");
  const json& tests = r["tests"];
  // Puzzle 1: build + 2 cases (the GPU-only case is worth nothing here and left out); puzzle 2, missing: one
  // test worth its points, not one per case never run.
  REQUIRE(tests.size() == 4);
  double sum = 0, max_sum = 0;
  for (const auto& t : tests) {
    sum += t["score"].get<double>();
    max_sum += t["max_score"].get<double>();
    CHECK(t["visibility"] == "visible");
    CHECK((t["status"] == "passed" || t["status"] == "failed"));
    CHECK(t["score"].get<double>() <= t["max_score"].get<double>());
  }
  CHECK(sum == r["score"].get<double>());
  CHECK(max_sum == grade.max_score());
  CHECK(tests[0]["name"] == "Puzzle 1 (Row softmax): build");
  CHECK(tests[0]["status"] == "passed");
  CHECK(tests[2]["status"] == "failed");
  CHECK(tests[2]["output"].get<std::string>().find("exp overflowed") != std::string::npos);  // the diagnosis
  CHECK(tests[3]["name"] == "Puzzle 2 (Tiled <softmax> & co): missing");
  CHECK(tests[3]["status"] == "failed");
  CHECK(tests[3]["max_score"] == 3);
  CHECK(tests[3]["output"].get<std::string>().find("no file named 02_tiled_softmax.cu") != std::string::npos);
  CHECK(r["output"].get<std::string>().find("Puzzle 2 (Tiled <softmax> & co): missing, 0/3") !=
        std::string::npos);
}

TEST_CASE("Gradescope: a compile error's log is in the build test; a secret seed is never shown") {
  GradeReport grade = testing::fixture_grade();
  grade.seed_source = SeedSource::secret;
  grade.run.seed = 987654321;
  BuildInfo& build = grade.puzzles[0].report.build;
  build.ok = false;
  build.message = "your file does not compile";
  build.log = "01_row_softmax.cu:3:1: error: expected ';'\n";
  const json r = gradescope_results(grade);
  CHECK(r["tests"][0]["status"] == "failed");
  CHECK(r["tests"][0]["output"].get<std::string>().find("expected ';'") != std::string::npos);
  CHECK(r.dump().find("987654321") == std::string::npos);
  CHECK(r["output"].get<std::string>().find("seed: secret") != std::string::npos);
  CHECK(junit_xml(grade).find("987654321") == std::string::npos);
}

TEST_CASE("Gradescope: a grade that stopped says why, and an interim one says it did not finish") {
  GradeReport grade = testing::fixture_grade();
  grade.run.error = "cannot find the C++ compiler";
  grade.complete = false;
  const std::string output = gradescope_results(grade)["output"];
  CHECK(output.find("Grading stopped: cannot find the C++ compiler") != std::string::npos);
  CHECK(output.find("did not finish") != std::string::npos);
}

TEST_CASE("JUnit: a suite per puzzle; failures, errors and skips counted; markup escaped") {
  GradeReport grade = testing::fixture_grade();
  grade.puzzles[0].report.cases[0].result.status = puzzle::CaseStatus::crashed;
  grade.puzzles[0].report.cases[0].result.message = "crashed: SIGSEGV at k.cu:3 <oops>";
  const std::string xml = junit_xml(grade);
  CHECK(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
  CHECK(occurrences(xml, "<testsuite ") == 2);
  // Puzzle 1: build, 2 counted cases (one crashed, one failed). Puzzle 2: build failed, 1 case skipped.
  CHECK(xml.find("<testsuites name=\"puzzle grade\" tests=\"5\" failures=\"2\" errors=\"1\" skipped=\"1\"") !=
        std::string::npos);
  CHECK(xml.find("<error message=\"crashed: SIGSEGV at k.cu:3 &lt;oops&gt;\" type=\"crashed\">") !=
        std::string::npos);
  CHECK(xml.find("name=\"puzzle 2: Tiled &lt;softmax&gt; &amp; co\"") != std::string::npos);
  CHECK(xml.find("<property name=\"score\" value=\"1\"/>") != std::string::npos);
  CHECK(xml.find("<skipped message=\"not run: the submission has no file named 02_tiled_softmax.cu\"/>") !=
        std::string::npos);
  CHECK(occurrences(xml, "<testcase ") == 5);
}

TEST_CASE("XML text: control characters and broken UTF-8 become U+FFFD, valid UTF-8 stays") {
  CHECK(xml_escaped("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;");
  CHECK(xml_escaped("\x1b[31merror\x1b[0m") == "\xEF\xBF\xBD[31merror\xEF\xBF\xBD[0m");
  CHECK(xml_escaped("line\n\ttab") == "line\n\ttab");
  CHECK(xml_escaped("caf\xC3\xA9 \xE2\x80\x94") == "caf\xC3\xA9 \xE2\x80\x94");
  CHECK(xml_escaped("bad \xC3 end") == "bad \xEF\xBF\xBD end");
  CHECK(xml_escaped("\xFF") == "\xEF\xBF\xBD");

  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(xml_escaped("\xC0\x80") == fffd + fffd);                        // overlong NUL
  CHECK(xml_escaped("\xE0\x80\x80") == fffd + fffd + fffd);             // overlong NUL, 3 bytes
  CHECK(xml_escaped("\xED\xA0\x80") == fffd + fffd + fffd);             // surrogate U+D800
  CHECK(xml_escaped("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // U+110000
  CHECK(xml_escaped("\xF5\x80\x80\x80") == fffd + fffd + fffd + fffd);
  CHECK(xml_escaped("\xEF\xBF\xBEx\xEF\xBF\xBF") == fffd + "x" + fffd);  // U+FFFE, U+FFFF
  CHECK(xml_escaped("\xED\x9F\xBF \xEE\x80\x80 \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF") ==
        "\xED\x9F\xBF \xEE\x80\x80 \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF");  // the edges stay

  // Every lead byte from 0x80 on, followed by bytes around the edges of the continuation ranges:
  // whatever survives must be XML text.
  const unsigned char edges[] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBE, 0xBF, 0xC0};
  for (int lead = 0x80; lead <= 0xFF; ++lead) {
    for (unsigned char b1 : edges) {
      for (unsigned char b2 : edges) {
        for (unsigned char b3 : edges) {
          const std::string in{static_cast<char>(lead), static_cast<char>(b1), static_cast<char>(b2),
                               static_cast<char>(b3)};
          const std::string out = xml_escaped(in);
          if (!is_xml_text(out))
            FAIL_CHECK("not XML text: bytes " << lead << " " << int(b1) << " " << int(b2) << " " << int(b3));
        }
      }
    }
  }
}

TEST_CASE("reports are written together; a learner's non-UTF-8 output does not stop them") {
  TempDir dir("cli-grade-");
  GradeReport grade = testing::fixture_grade();
  grade.puzzles[0].report.program_stdout = "garbage \xFF\xFE bytes\n";
  const GradeReportFiles files{.json = dir.path() / "a" / "report.json",
                               .gradescope = dir.path() / "results.json",
                               .junit = dir.path() / "junit.xml"};
  CHECK(write_grade_reports(files, grade, "0.1.0").empty());
  CHECK(json::parse(*read_text(*files.json))["score"] == 1);
  CHECK(json::parse(*read_text(*files.gradescope))["score"] == 1);
  CHECK(read_text(*files.junit)->find("<testsuites") != std::string::npos);

  std::ofstream(dir.path() / "blocker") << "a file, not a folder";
  const auto failures = write_grade_reports(
      {.json = dir.path() / "blocker" / "report.json", .junit = files.junit}, grade, "0.1.0");
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].find("blocker") != std::string::npos);
}

TEST_CASE("the report files of a command line that did not parse are found all the same") {
  const GradeReportFiles files =
      report_files_in({"puzzle", "grade", "--bogus", "--json", "r.json", "--gradescope=/out/results.json"});
  CHECK(files.json == std::filesystem::path("r.json"));
  CHECK(files.gradescope == std::filesystem::path("/out/results.json"));
  CHECK_FALSE(files.junit);
  CHECK_FALSE(report_files_in({"puzzle", "grade", "--junit"}).any());  // no value: nothing to write
}

TEST_CASE("Gradescope: a course's points shared out over a puzzle's case tests, the sum still the score") {
  GradeReport grade = testing::fixture_grade();
  grade.puzzles[0].weight = 10.0;  // 1 of 2 cases passed: 5 points
  grade.puzzles[1].weight = 30.0;
  const json r = gradescope_results(grade);
  CHECK(r["score"] == 5);
  double max_sum = 0;
  for (const auto& t : r["tests"]) max_sum += t["max_score"].get<double>();
  CHECK(max_sum == 40);
  CHECK(r["tests"][1]["max_score"] == 5);
  CHECK(r["tests"][3]["max_score"] == 30);
  const json j = grade_to_json(grade, "1.0");
  CHECK(j["puzzles"][0]["points"] == 5);
  CHECK(j["puzzles"][0]["max_points"] == 10);
  CHECK(j["puzzles"][0]["weight"] == 10);
  CHECK(j["max_score"] == 40);
}

TEST_CASE("a bad grade command line: one line, exit 2; the reports named carry the error") {
  TempDir dir("cli-grade-");
  const auto results = dir.path() / "results.json";
  std::ostringstream err;
  CHECK(grade_usage_error({"puzzle", "grade", "--puzzels", "1", "--gradescope", results.string()},
                          "The following argument was not expected: --puzzels\nRun with --help\n",
                          build_config(), err) == 2);
  CHECK(err.str() == "The following argument was not expected: --puzzels\n");
  const json r = json::parse(*read_text(results));
  CHECK(r["score"] == 0);
  CHECK(r["tests"].empty());
  CHECK(r["output"].get<std::string>().find("--puzzels") != std::string::npos);
  CHECK(err.str().find("--puzzels") != std::string::npos);
  std::ostringstream err2;
  CHECK(grade_usage_error({"puzzle", "grade", "--puzzels"}, "bad\n", build_config(), err2) == 2);
}
