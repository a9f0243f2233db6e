// Puzzles 2-4 judge float32 implementations of their own algorithms: right ones pass every simulator
// case with a margin, wrong ones (an element dropped, a max of one tile) fail.
#include <doctest/doctest.h>

#include "judge_trial.hpp"

using namespace puzzle;
using trial::Trial;

namespace {

struct Named {
  const char* name;
  fp32::Kernel kernel;
};

// A block of 256 threads per row, three passes or online; a warp per row (blocked), online or three
// passes: the warp's lanes have the longest sequential sums and the most online rescales the
// tolerance allows for (harness/core/families/softmax_family.hpp says why a single thread per long row is not
// among them).
const Named kRight[] = {
    {"three-pass, 256 threads", {.fast_exp = true, .threads = 256}},
    {"online, 256 threads", {.fast_exp = true, .threads = 256, .online = true}},
    {"blocked: online, a warp per row", {.fast_exp = true, .threads = 32, .online = true}},
    {"blocked: three-pass, a warp per row", {.threads = 32}},
};

}  // namespace

TEST_CASE("right float32 three-pass, online and blocked softmax pass every simulator case of puzzles 2-4") {
  for (const int id : {2, 3, 4}) {
    double worst = 0;
    for (const TestCase& t : find_puzzle(id)->cases) {
      if (!t.sim) continue;
      const CaseExpectation expectation = Trial::expect(id, t.name);  // once for the four kernels
      for (const Named& right : kRight) {
        const CaseResult r = Trial(id, expectation, t.name, right.kernel).judge();
        INFO("puzzle ", id, " ", t.name, " ", right.name, ": ", r.message, " ", trial::all_ids(r));
        CHECK(r.status == CaseStatus::passed);
        CHECK(r.diagnoses.empty());
        worst = std::max(worst, r.checks[0].max_rel_err);
      }
    }
    MESSAGE("puzzle ", id, ": worst relative error of a right float32 kernel: ", worst);
    CHECK(worst < find_puzzle(id)->tolerance.rtol / 3);  // a real margin, not a lucky pass
  }
}

TEST_CASE("a dropped element fails, even in a row of 262145") {
  for (const int id : {2, 3, 4}) {
    Trial t(id, "1x262145", kRight[0].kernel);
    t.at(0, 131072) = trial::poison();
    CHECK(t.judge().status == CaseStatus::failed);
    Trial u(id, "1x262145", kRight[0].kernel);
    u.at(0, 262144) = 0;
    CHECK(u.judge().status == CaseStatus::failed);
  }
}

// Softmax does not change when every x of a row is shifted by one value, so a max of part of the row
// is right until exp(x - max) overflows: neg_inf_tiles makes the first tile's max -inf.
TEST_CASE("the max of the first tile instead of the row's fails") {
  fp32::Kernel first_tile_max = kRight[0].kernel;
  first_tile_max.max_columns = 1024;
  for (const int id : {2, 3, 4}) {
    const CaseResult r = Trial(id, "neg_inf_tiles", first_tile_max).judge();
    CHECK(r.status == CaseStatus::failed);
    CHECK(trial::has(r, "nan_output"));
  }
}
