// judge_case on synthetic outputs: right kernels pass, each generic diagnosis appears when its
// evidence is there and not otherwise.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "format.hpp"
#include "judge_trial.hpp"

using namespace puzzle;
using trial::has;
using trial::Trial;

TEST_CASE("right float32 kernels pass every simulator case") {
  const PuzzleSpec& p = *find_puzzle(1);
  const fp32::Kernel kernels[] = {{}, {.fast_exp = true, .sum = fp32::Sum::sequential}};
  double worst = 0;
  for (const TestCase& t : p.cases) {
    if (!t.sim) continue;
    const CaseExpectation expectation = Trial::expect(1, t.name);  // once for both kernels
    for (const fp32::Kernel& kernel : kernels) {
      const CaseResult r = Trial(1, expectation, t.name, kernel).judge();
      INFO(t.name, ": ", r.message, " ", trial::all_ids(r));
      CHECK(r.status == CaseStatus::passed);
      CHECK(r.points == t.points);
      CHECK(r.diagnoses.empty());
      worst = std::max(worst, r.checks[0].max_rel_err);
    }
  }
  MESSAGE("worst relative error of a right float32 kernel: ", worst);
  CHECK(worst < p.tolerance.rtol / 3);  // a real margin, not a lucky pass
}

TEST_CASE("the tolerance edge: just inside passes, just outside fails") {
  for (double sign : {1.0, -1.0}) {
    Trial t("2x32");
    const RefBuffers expected = expected_outputs(t.puzzle, t.test, t.inputs);
    const double want = expected[0][37];
    const double tolerance = t.puzzle.tolerance.atol + t.puzzle.tolerance.rtol * std::abs(want);
    t.y[37] = static_cast<float>(want + sign * 0.95 * tolerance);
    CHECK(t.judge().status == CaseStatus::passed);
    t.y[37] = static_cast<float>(want + sign * 1.05 * tolerance);
    const CaseResult r = t.judge();
    CHECK(r.status == CaseStatus::failed);
    CHECK(r.checks[0].mismatches == 1);
    REQUIRE(r.checks[0].first.size() == 1);
    CHECK(r.checks[0].first[0].location == "row 1, col 5");
    CHECK(r.message.find("1 of 64 elements wrong") == 0);
  }
}

TEST_CASE("the summary prints enough digits to show the difference it reports") {
  Trial t("2x32");
  const double want = expected_outputs(t.puzzle, t.test, t.inputs)[0][37];
  t.y[37] = static_cast<float>(want * (1 + 4 * t.puzzle.tolerance.rtol));  // wrong, but close
  const std::string message = t.judge().message;
  CAPTURE(message);
  const size_t expected_at = message.find("expected "), got_at = message.find(", got ");
  REQUIRE(expected_at != std::string::npos);
  REQUIRE(got_at != std::string::npos);
  const std::string expected = message.substr(expected_at + 9, got_at - expected_at - 9);
  CHECK(expected != message.substr(got_at + 6));
  CHECK(expected.size() <= 12);  // no more digits than it takes
}

TEST_CASE("format_distinct: the fewest digits, at least the default, that tell two numbers apart") {
  CHECK(format_distinct(0.25, 0.5).first == "0.25");
  CHECK(format_distinct(0.25, 0.5).second == "0.5");
  const auto [a, b] = format_distinct(0.078612, 0.078598);
  CHECK(a == "0.07861");
  CHECK(b == "0.0786");
  CHECK(format_distinct(1.0, 1.0).first == format_distinct(1.0, 1.0).second);  // equal stays equal
}

TEST_CASE("unwritten elements are counted and their pattern named") {
  Trial t("127x129");
  t.at(3, 17) = t.at(50, 2) = t.at(90, 100) = trial::poison();
  const CaseResult r = t.judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(r.checks[0].unwritten == 3);
  CHECK(r.checks[0].nan_count == 0);
  CHECK(trial::message_of(r, "unwritten_elements").find("scattered") != std::string::npos);
  CHECK(trial::message_of(r, "unwritten_elements").find("row 3, col 17") != std::string::npos);
  CHECK(r.message.find("never written") != std::string::npos);
  CHECK(!has(r, "nan_output"));
}

TEST_CASE("an output left whole unwritten says why from the evidence, not a guess about the launch") {
  Trial t("127x129");
  std::fill(t.y.begin(), t.y.end(), trial::poison());
  const auto why = [&] { return trial::message_of(t.judge(), "unwritten_elements"); };
  CHECK(why().find("a kernel ran but stored nothing to y") != std::string::npos);

  // The simulator stopped the kernel at a misaligned read: that, not the launch, is the reason.
  t.record.sim = {{"findings",
                   {{{"severity", "error"},
                     {"kind", "misaligned_access"},
                     {"message", "read of 4 bytes at x + 2 bytes is not aligned to 4 bytes"}}}}};
  CHECK(why() ==
        "nothing was written to y: the kernel stopped at the simulator's error above before any store");

  t.record.sim = nullptr;
  t.record.launch_error = "cudaErrorMisalignedAddress: misaligned address";
  CHECK(why().find("failed with the CUDA error above") != std::string::npos);

  t.record.launch_error.clear();
  t.record.kernel_launches = 0;
  CHECK(why() == "nothing was written to y: the launcher launched no kernel");
}

TEST_CASE("writes outside the buffer are caught by the guards") {
  Trial t("33x31");
  for (int i = 0; i < 15; ++i) t.after[i] = 0.0f;
  CaseResult r = t.judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(r.checks[0].guard_after == 15);
  CHECK(r.checks[0].farthest_after == 15);
  CHECK(r.checks[0].mismatches == 0);
  CHECK(trial::message_of(r, "out_of_bounds_write").find("wrote 15 floats past the end of y") == 0);

  Trial u("33x31");
  u.before[protocol::kGuardElems - 2] = 1.0f;
  r = u.judge();
  CHECK(r.checks[0].guard_before == 1);
  CHECK(r.checks[0].farthest_before == 2);
  CHECK(trial::message_of(r, "out_of_bounds_write").find("before the start of y") != std::string::npos);
}

TEST_CASE("modified inputs fail a right output") {
  Trial t("3x1000");
  t.record.inputs_modified = 3;
  const CaseResult r = t.judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(has(r, "inputs_modified"));
  CHECK(r.diagnoses.size() == 1);
}

TEST_CASE("launch errors are explained") {
  Trial t("127x129");
  std::fill(t.y.begin(), t.y.end(), trial::poison());
  t.record.launch_error = "cudaErrorInvalidConfiguration: invalid configuration argument";
  CaseResult r = t.judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(trial::message_of(r, "launch_error").find("1024 threads") != std::string::npos);
  CHECK(r.message == "CUDA error: " + t.record.launch_error);

  t.record.launch_error = "cudaErrorIllegalAddress: an illegal memory access was encountered";
  r = t.judge();
  CHECK(r.status == CaseStatus::crashed);  // the GPU's way of crashing, like a SIGSEGV on the simulator
  CHECK(trial::message_of(r, "launch_error").find("--backend sim") != std::string::npos);
  // On the simulator itself the finding beside it has the line: no advice to run there.
  t.record.sim = nlohmann::json::object();
  r = t.judge();
  CHECK(trial::message_of(r, "launch_error").find("--backend sim") == std::string::npos);
  CHECK(trial::message_of(r, "launch_error").find("the simulator's finding names the line") !=
        std::string::npos);
  t.record.sim = nullptr;

  // A sticky error: the child could not copy y back.
  r = judge_case(t.puzzle, t.test, t.seed, {{}}, t.record);
  CHECK(r.status == CaseStatus::crashed);
  CHECK(!r.checks[0].available);
  CHECK(has(r, "launch_error"));
  CHECK(!has(r, "unwritten_elements"));

  // A launch the simulator refused, whose error the launcher swallowed.
  t.record.launch_error.clear();
  t.record.sim = {{"launches", {{{"kernel", "softmax"}, {"error", "cudaErrorInvalidValue"}}}}};
  r = t.judge();
  CHECK(trial::message_of(r, "launch_error").find("cudaFuncSetAttribute") != std::string::npos);
}

TEST_CASE("NaN outputs where the answer is finite") {
  Trial t("257x1024");
  t.at(4, 9) = std::numeric_limits<float>::quiet_NaN();
  t.at(5, 9) = std::numeric_limits<float>::infinity();
  const CaseResult r = t.judge();
  CHECK(r.checks[0].nan_count == 1);
  CHECK(r.checks[0].inf_count == 1);
  CHECK(trial::message_of(r, "nan_output").find("1 NaN and 1 inf") != std::string::npos);
  CHECK(trial::message_of(r, "nan_output").find("row 4, col 9") != std::string::npos);
}

TEST_CASE("a simulator error fails right values; warnings and traffic become notes") {
  Trial t("127x129");
  const nlohmann::json race = {{"severity", "error"},
                               {"kind", "shared_race"},
                               {"message", "write to red[3] races with a read by thread 35"},
                               {"file", "01_row_softmax.cu"},
                               {"line", 12},
                               {"block", {1, 0, 0}},
                               {"thread", {3, 0, 0}},
                               {"count", 4}};
  const nlohmann::json warning = {
      {"severity", "warning"}, {"kind", "uncoalesced"}, {"message", "stride 129"}};
  const nlohmann::json traffic = {
      {"label", "x"}, {"size", 127 * 129 * 4}, {"bytes_read", 3 * 127 * 129 * 4}, {"bytes_written", 0}};
  const nlohmann::json traffic_y = {
      {"label", "y"}, {"size", 127 * 129 * 4}, {"bytes_read", 0}, {"bytes_written", 127 * 129 * 4}};
  t.record.sim = {{"findings", {warning}}, {"traffic", {traffic, traffic_y}}};
  CaseResult r = t.judge();
  CHECK(r.status == CaseStatus::passed);
  REQUIRE(r.notes.size() == 2);
  CHECK(r.notes[0].find("uncoalesced") != std::string::npos);
  CHECK(r.notes[1] == "traffic: x read 3.0x, y written 1.0x (budget: read x once, write y once)");

  t.record.sim["findings"].push_back(race);
  r = t.judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(r.points == 0);
  const std::string message = trial::message_of(r, "sim_shared_race");
  CHECK(message.find("01_row_softmax.cu:12") != std::string::npos);
  CHECK(message.find("block (1,0,0), thread (3,0,0)") != std::string::npos);
  CHECK(message.find("4 times") != std::string::npos);
  CHECK(r.message.find("undefined behaviour") != std::string::npos);
}

TEST_CASE("a timed case gets its bandwidth") {
  Trial t("1x17");
  t.record.time_ms = 0.5;
  const CaseResult r = t.judge();
  REQUIRE(r.gbps.has_value());
  CHECK(*r.gbps == doctest::Approx(2.0 * 17 * 4 / 0.5e-3 * 1e-9));
  CHECK(!r.tflops.has_value());
}

TEST_CASE("failed_run keeps what the parent knows") {
  const PuzzleSpec& p = *find_puzzle(1);
  const TestCase& t = p.cases.front();
  const CaseResult r =
      failed_run(p, t, CaseStatus::timeout, "no answer after 10 s", {{"timeout", "an endless loop?"}});
  CHECK(r.status == CaseStatus::timeout);
  CHECK(r.name == t.name);
  CHECK(r.points == 0);
  CHECK(r.max_points == t.points);
  CHECK(r.message == "no answer after 10 s");
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(std::string(to_string(r.status)) == "timeout");
}

TEST_CASE("right values without device work fail: no kernel, a refused copy, or no evidence at all") {
  Trial t("2x32");
  REQUIRE(t.judge().status == CaseStatus::passed);
  t.record.kernel_launches = 0;
  CaseResult r = t.judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(has(r, "no_device_work"));
  CHECK(r.message == "refused: your launcher launched no kernel; the outputs must be computed on the device");
  t.record.kernel_launches = -1;  // an old or broken child: missing evidence is not a pass
  CHECK(t.judge().status == CaseStatus::failed);
  t.record.kernel_launches = 2;
  t.record.refused = {"cudaMemcpy copied input x to the host"};
  r = t.judge();
  CHECK(r.status == CaseStatus::failed);
  CHECK(r.message == "refused: cudaMemcpy copied input x to the host");
}
