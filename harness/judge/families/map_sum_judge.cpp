#include "families/map_sum_judge.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "compare.hpp"
#include "families/map_sum_family.hpp"

namespace puzzle::puzzles::map_sum {
namespace {

void reference(const Params& p, const Buffers& in, RefBuffers& out) {
  const int64_t n = n_of(p);
  for (int64_t i = 0; i < n; ++i) out[0][i] = std::exp(static_cast<double>(in[0][i]));
  for (int64_t b = 0; b < chunks_of(p); ++b) {
    double sum = 0;
    for (int64_t i = b * kChunk; i < std::min(n, (b + 1) * kChunk); ++i) sum += out[0][i];
    out[1][b] = sum;
  }
}

struct Evidence {
  const CaseEvidence& e;
  int64_t n = n_of(e.test->params);
  const std::vector<float>& x() const { return (*e.inputs)[0]; }
  const std::vector<float>& y() const { return (*e.outputs)[0]; }
  const std::vector<float>& sums() const { return (*e.outputs)[1]; }
  bool y_right() const { return e.checks[0].mismatches == 0; }
  bool sum_ok(int64_t b, double want) const {
    return compare_element(sums()[b], want, e.puzzle->tolerance) == Outcome::ok;
  }
  bool sum_wrong(int64_t b) const { return !sum_ok(b, (*e.expected)[1][b]); }
  // Whether every wrong sum is `want(b)` instead, and some sum is wrong.
  bool wrong_sums_are(const std::function<double(int64_t)>& want) const {
    bool any = false;
    for (int64_t b = 0; b < chunks_of(e.test->params); ++b) {
      if (!sum_wrong(b)) continue;
      if (!sum_ok(b, want(b))) return false;
      any = true;
    }
    return any;
  }
  // The exact sum of exp(x) over the first `count` elements of chunk b.
  double chunk_prefix(int64_t b, int64_t count) const {
    double sum = 0;
    for (int64_t i = b * kChunk; i < std::min(n, b * kChunk + count); ++i)
      sum += std::exp(static_cast<double>(x()[i]));
    return sum;
  }
};

// y is written from the start up to some element and never after: the grid covers fewer elements than n.
void grid_too_small(const Evidence& v, std::vector<Diagnosis>& out) {
  const std::vector<float>& y = v.y();
  int64_t written = 0;
  while (written < v.n && !is_poison(y[written])) ++written;
  if (written == 0 || written == v.n) return;
  for (int64_t i = written; i < v.n; ++i) {
    if (!is_poison(y[i])) return;
  }
  out.push_back(
      {"grid_too_small",
       "y is written up to element " + std::to_string(written - 1) +
           " and never after: the grid "
           "covers " +
           std::to_string(written) + " of n = " + std::to_string(v.n) +
           " elements (n / blockDim rounded down?). Launch (n + 255) / 256 blocks of 256, rounded up, "
           "and keep the threads past the end from reading and writing with `if (i < n)`"});
}

void sums_of_x(const Evidence& v, std::vector<Diagnosis>& out) {
  const auto x_sum = [&](int64_t b) {
    double sum = 0;
    for (int64_t i = b * kChunk; i < std::min(v.n, (b + 1) * kChunk); ++i) sum += v.x()[i];
    return sum;
  };
  if (!v.wrong_sums_are(x_sum)) return;
  out.push_back({"sums_of_x",
                 "every wrong entry of sums is the sum of x over its chunk: sums adds exp(x), the values "
                 "written to y"});
}

// Each chunk's sum covers only its first `count` elements (a tree that starts at too small a stride, or a
// block of fewer than 256 threads), the same count in every wrong chunk.
void chunk_partly_summed(const Evidence& v, std::vector<Diagnosis>& out) {
  for (int64_t count = 1; count < kChunk; ++count) {
    if (count >= v.n) return;  // no chunk is longer: this count sums them all
    if (!v.wrong_sums_are([&](int64_t b) { return v.chunk_prefix(b, count); })) continue;
    out.push_back({"chunk_partly_summed",
                   "each wrong entry of sums is the sum of the first " + std::to_string(count) +
                       " elements of its chunk of 256 only: the reduction leaves out the rest. A tree over "
                       "256 values starts at stride 128 (blockDim.x / 2) and halves it down to 1, and the "
                       "block needs 256 threads, one per element of the chunk"});
    return;
  }
}

// y is right and the sums are not, and no hypothesis above fits: say at least that the map is done.
void map_done(const Evidence& v, std::vector<Diagnosis>& out) {
  if (!v.y_right() || v.e.checks[1].mismatches == 0) return;
  out.push_back(
      {"sums_wrong",
       "y is right everywhere: the map is done. sums is not: each entry is the sum of y over its chunk "
       "of 256 elements (the last chunk may be shorter), one block's worth"});
}

void diagnose(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  if (e.checks.size() < 2 || !e.checks[0].available || !e.checks[1].available) return;
  const Evidence v{e};
  const size_t before = out.size();
  grid_too_small(v, out);
  sums_of_x(v, out);
  if (out.size() == before) chunk_partly_summed(v, out);
  if (out.size() == before) map_done(v, out);
}

}  // namespace

Judge judge(const std::vector<std::string>& extra_diagnoses) {
  if (!extra_diagnoses.empty())
    throw std::logic_error("the map_sum judge has no diagnosis \"" + extra_diagnoses[0] + "\"");
  return {.reference = reference, .diagnose = diagnose, .allowance = {}};
}

}  // namespace puzzle::puzzles::map_sum
