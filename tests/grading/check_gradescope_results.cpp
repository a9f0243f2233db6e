// Checks one submission of the Gradescope dry run (dry_run.sh): that results.json is what Gradescope accepts
// and agrees with our JSON report, and that every puzzle got the status and score it should.
//   check_gradescope_results RESULTS_JSON REPORT_JSON ID:STATUS [ID:STATUS ...]
// STATUS is the puzzle's expected status: passed (full marks), failed / crashed / timeout (built, not full
// marks), compile_error or missing (nothing); ID:STATUS:POINTS where a course file gives it POINTS.
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "registry.hpp"

namespace {

using nlohmann::json;

std::vector<std::string> problems;

void expect(bool ok, const std::string& what) {
  if (!ok) problems.push_back(what);
}

json load(const char* file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(std::string("cannot read ") + file);
  return json::parse(in);
}

// The points a puzzle is worth on the simulator: its cases that run there.
double simulator_points(const puzzle::PuzzleSpec& spec) {
  double points = 0;
  for (const auto& c : spec.cases) points += c.sim ? c.points : 0;
  return points;
}

struct PuzzleTotals {
  double score = 0, max_score = 0;
  int builds = 0;
  int missing_tests = 0;  // a puzzle without a file: one test holds its points
  bool built = false;
};

std::map<int, PuzzleTotals> check_results(const json& r) {
  expect(r.is_object(), "results.json is not an object");
  expect(r.contains("score") && r["score"].is_number(), "no numeric top-level score");
  expect(r.contains("execution_time") && r["execution_time"].is_number_integer() && r["execution_time"] >= 0,
         "no execution_time in whole seconds");
  expect(r.contains("output") && r["output"].is_string(), "no output text");
  expect(r.contains("tests") && r["tests"].is_array() && !r["tests"].empty(), "no tests");
  std::map<int, PuzzleTotals> puzzles;
  double sum = 0;
  for (const json& t : r.value("tests", json::array())) {
    const std::string name = t.value("name", "");
    expect(name.starts_with("Puzzle "), "a test without a puzzle in its name: " + name);
    expect(t["score"].is_number() && t["max_score"].is_number(), name + ": scores are not numbers");
    const double score = t.value("score", -1.0), max_score = t.value("max_score", -1.0);
    expect(score >= 0 && score <= max_score, name + ": score outside 0..max_score");
    expect(t["status"] == "passed" || t["status"] == "failed",
           name + ": status is neither passed nor failed");
    expect(t["visibility"] == "visible", name + ": not visible to the student");
    expect(t["output"].is_string(), name + ": no output");
    expect((score == max_score) == (t["status"] == "passed") || max_score == 0,
           name + ": status and score disagree");
    const int id = std::stoi(name.substr(7));
    PuzzleTotals& p = puzzles[id];
    p.score += score;
    p.max_score += max_score;
    if (name.ends_with("): build")) {
      ++p.builds;
      p.built = t["status"] == "passed";
    }
    p.missing_tests += name.ends_with("): missing");
    sum += score;
  }
  expect(std::abs(sum - r.value("score", -1.0)) < 1e-9, "the total is not the sum of the tests' scores");
  return puzzles;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: check_gradescope_results RESULTS_JSON REPORT_JSON ID:STATUS ...\n";
    return 2;
  }
  try {
    const json results = load(argv[1]), report = load(argv[2]);
    const auto puzzles = check_results(results);
    // A submission with no puzzle file at all is a grade that found nothing to grade, and says so.
    bool all_missing = true;
    for (int i = 3; i < argc; ++i) all_missing = all_missing && std::string(argv[i]).ends_with(":missing");
    expect(report["complete"] == true, "our report says grading did not finish");
    if (all_missing) {
      expect(
          report["error"].is_string() && report["error"].get<std::string>().starts_with("nothing to grade"),
          "a submission with no puzzle file is not said to have nothing to grade");
    } else {
      expect(report["error"].is_null(), "our report says grading stopped: " + report["error"].dump());
    }
    expect(report["score"] == results["score"], "our report and results.json disagree on the score");
    std::map<int, std::string> statuses;
    for (const json& p : report["puzzles"]) statuses[p["id"].get<int>()] = p["status"];
    expect(puzzles.size() == static_cast<size_t>(argc - 3), "results.json does not have the puzzles graded");
    for (int i = 3; i < argc; ++i) {
      const std::string arg = argv[i];
      // ID:STATUS, or ID:STATUS:POINTS where a course gives the puzzle its points.
      const int id = std::stoi(arg.substr(0, arg.find(':')));
      std::string want = arg.substr(arg.find(':') + 1);
      std::optional<double> course_points;
      if (const auto colon = want.find(':'); colon != std::string::npos) {
        course_points = std::stod(want.substr(colon + 1));
        want.resize(colon);
      }
      const std::string where = "puzzle " + std::to_string(id) + ": ";
      const puzzle::PuzzleSpec* spec = puzzle::find_puzzle(id);
      if (!spec || !puzzles.contains(id)) {
        problems.push_back(where + "not in results.json");
        continue;
      }
      const PuzzleTotals& p = puzzles.at(id);
      expect(statuses[id] == want, where + "status " + statuses[id] + ", expected " + want);
      if (want == "missing") {
        expect(p.builds == 0 && p.missing_tests == 1, where + "not one test saying the file is missing");
      } else {
        expect(p.builds == 1, where + "not exactly one build test");
      }
      const double points = course_points.value_or(simulator_points(*spec));
      expect(std::abs(p.max_score - points) < 1e-9,
             where + "max score " + std::to_string(p.max_score) + ", expected " + std::to_string(points));
      if (want == "passed") {
        expect(p.built && p.score == p.max_score, where + "not full marks");
      } else if (want == "compile_error" || want == "missing") {
        expect(!p.built && p.score == 0, where + "a build test that passed, or points");
      } else {
        expect(p.built && p.score < p.max_score, where + "full marks, or no build");
      }
    }
  } catch (const std::exception& e) {
    problems.push_back(e.what());
  }
  for (const auto& p : problems) std::cerr << "dry run: " << p << "\n";
  return problems.empty() ? 0 : 1;
}
