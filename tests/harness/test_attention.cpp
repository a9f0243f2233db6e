// The attention family (puzzles 5 and 6) and puzzle 5's judge: the float64 forward reference against a
// naive softmax(scale Q K^T) V, the causal rule and its empty rows, the case list, the tolerance against a
// float32 flash kernel, the scratch rule, and the diagnoses of outputs that are right for another problem.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <vector>

#include "case_data.hpp"
#include "families/attention_family.hpp"
#include "judge_trial.hpp"
#include "judges.hpp"
#include "protocol.hpp"
#include "verdict.hpp"

using namespace puzzle;
using namespace puzzle::puzzles::attention;

namespace {

const PuzzleSpec& flash() {
  return *find_puzzle(5);
}

Buffers qkv(const TestCase& test, uint64_t seed = 3) {
  return draw_inputs(flash(), test, seed);
}

// softmax(scale Q K^T + mask) V and log(sum exp) written out the long way: the whole matrix S, the
// mask as j - i <= n_k - n_q, no running max.
void naive_attention(const Params& p, const Buffers& in, std::vector<double>& o, std::vector<double>& lse) {
  const int64_t bh = p.at("bh"), n_q = p.at("n_q"), n_k = p.at("n_k"), d = p.at("d");
  o.assign(bh * n_q * d, 0.0);
  lse.assign(bh * n_q, 0.0);
  for (int64_t h = 0; h < bh; ++h) {
    for (int64_t i = 0; i < n_q; ++i) {
      std::vector<double> weight(n_k, 0.0);
      double total = 0;
      for (int64_t j = 0; j < n_k; ++j) {
        if (p.at("causal") && j - i > n_k - n_q) continue;
        double dot = 0;
        for (int64_t x = 0; x < d; ++x)
          dot += double(in[0][(h * n_q + i) * d + x]) * in[1][(h * n_k + j) * d + x];
        weight[j] = std::exp(scale_of(p) * dot);
        total += weight[j];
      }
      lse[h * n_q + i] = std::log(total);
      for (int64_t j = 0; j < n_k; ++j) {
        for (int64_t x = 0; x < d; ++x) {
          o[(h * n_q + i) * d + x] += total > 0 ? weight[j] / total * in[2][(h * n_k + j) * d + x] : 0.0;
        }
      }
    }
  }
}

struct Reference {
  std::vector<double> o, lse;
};

Reference reference_of(const Shape& shape, const Buffers& in) {
  Reference r{std::vector<double>(shape.bh * shape.n_q * shape.d), std::vector<double>(shape.bh * shape.n_q)};
  forward(shape, in[0].data(), in[1].data(), in[2].data(), r.o.data(), r.lse.data());
  return r;
}

// The solution's arithmetic in float on the CPU: tiles of 64 keys, q pre-multiplied by scale * log2(e),
// exp2f, one running (m, l, O) per row, o = O / l and lse = ln(2) * (m + log2(l)) at the end.
void float32_flash(const Shape& s, const Buffers& in, std::vector<float>& o, std::vector<float>& lse) {
  constexpr int64_t kTile = 64;
  const float q_factor = static_cast<float>(s.scale) * 1.44269504f;
  o.assign(s.bh * s.n_q * s.d, 0.0f);
  lse.assign(s.bh * s.n_q, 0.0f);
  std::vector<float> acc(s.d), p(kTile);
  for (int64_t h = 0; h < s.bh; ++h) {
    for (int64_t i = 0; i < s.n_q; ++i) {
      const float* q = &in[0][(h * s.n_q + i) * s.d];
      float m = -INFINITY, l = 0;
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int64_t first = 0; first < s.n_k; first += kTile) {
        float tile_max = -INFINITY;
        for (int64_t j = first; j < std::min(first + kTile, s.n_k); ++j) {
          float dot = 0;
          for (int64_t x = 0; x < s.d; ++x)
            dot = std::fma(q[x] * q_factor, in[1][(h * s.n_k + j) * s.d + x], dot);
          p[j - first] = s.sees(i, j) ? dot : -INFINITY;
          tile_max = std::max(tile_max, p[j - first]);
        }
        const float m_new = std::max(m, tile_max), base = m_new == -INFINITY ? 0.0f : m_new;
        const float rescale = std::exp2(m - base);
        l *= rescale;
        for (float& a : acc) a *= rescale;
        for (int64_t j = first; j < std::min(first + kTile, s.n_k); ++j) {
          const float e = std::exp2(p[j - first] - base);
          l += e;
          for (int64_t x = 0; x < s.d; ++x) acc[x] = std::fma(e, in[2][(h * s.n_k + j) * s.d + x], acc[x]);
        }
        m = m_new;
      }
      for (int64_t x = 0; x < s.d; ++x) o[(h * s.n_q + i) * s.d + x] = l > 0 ? acc[x] / l : 0.0f;
      lse[h * s.n_q + i] = l > 0 ? 0.69314718f * (m + std::log2(l)) : -INFINITY;
    }
  }
}

std::vector<float> with_guards(const std::vector<float>& data) {
  std::vector<float> file = trial::Trial::guard();
  file.insert(file.end(), data.begin(), data.end());
  const std::vector<float> after = trial::Trial::guard();
  file.insert(file.end(), after.begin(), after.end());
  return file;
}

std::vector<float> to_float(const std::vector<double>& values) {
  return {values.begin(), values.end()};
}

CaseResult judge(const TestCase& test, const std::vector<float>& o, const std::vector<float>& lse,
                 const protocol::CaseRecord& record = trial::launched(), uint64_t seed = 3) {
  return judge_case(flash(), test, seed, {with_guards(o), with_guards(lse)}, record);
}

}  // namespace

TEST_CASE("the forward reference is softmax(scale Q K^T) V with its natural logsumexp") {
  for (const TestCase& test :
       {sized(2, 5, 7, 16, false, ""), sized(2, 7, 5, 16, true, ""), sized(1, 6, 9, 32, true, ""),
        with_scale_milli(300, "scaled", sized(1, 4, 4, 16, false, ""))}) {
    CAPTURE(test.name);
    const Buffers in = qkv(test);
    const Reference got = reference_of(shape_of(test.params), in);
    std::vector<double> o, lse;
    naive_attention(test.params, in, o, lse);
    for (size_t i = 0; i < o.size(); ++i) CHECK(got.o[i] == doctest::Approx(o[i]).epsilon(1e-12));
    for (size_t i = 0; i < lse.size(); ++i) {
      if (std::isinf(lse[i]))
        CHECK(got.lse[i] == lse[i]);  // a row that sees no key: -inf
      else
        CHECK(got.lse[i] == doctest::Approx(lse[i]).epsilon(1e-12));
    }
  }
}

TEST_CASE("causal is aligned bottom-right; a row that sees no key gets o = 0 and lse = -inf") {
  const TestCase test = sized(1, 5, 2, 16, true, "");
  const Shape shape = shape_of(test.params);
  CHECK(shape.diagonal == -3);
  CHECK(shape.visible_keys(0) == 0);
  CHECK(shape.visible_keys(2) == 0);
  CHECK(shape.visible_keys(3) == 1);
  CHECK(shape.visible_keys(4) == 2);  // the last query sees every key
  CHECK(shape_of(sized(1, 3, 5, 16, true, "").params).visible_keys(0) == 3);
  CHECK(shape_of(sized(1, 5, 3, 16, false, "").params).visible_keys(0) == 3);

  const Buffers in = qkv(test);
  const Reference r = reference_of(shape, in);
  for (int64_t i = 0; i < 3; ++i) {
    CHECK(r.lse[i] == -INFINITY);
    for (int64_t x = 0; x < 16; ++x) CHECK(r.o[i * 16 + x] == 0.0);
  }
  double s00 = 0;  // query 3 sees key 0 alone: o = v_0, lse = its score
  for (int64_t x = 0; x < 16; ++x) s00 += double(in[0][3 * 16 + x]) * in[1][x];
  CHECK(r.lse[3] == doctest::Approx(s00 / 4).epsilon(1e-12));
  for (int64_t x = 0; x < 16; ++x) CHECK(r.o[3 * 16 + x] == doctest::Approx(in[2][x]).epsilon(1e-12));
}

TEST_CASE("scale, FLOPs and buffer locations") {
  CHECK(scale_of(sized(1, 1, 1, 64, false, "").params) == doctest::Approx(0.125));
  CHECK(scale_of(with_scale_milli(300, "s", sized(1, 1, 1, 64, false, "")).params) == doctest::Approx(0.3));
  CHECK(forward_flops(sized(2, 10, 20, 64, false, "").params) == 4.0 * 2 * 10 * 20 * 64);
  CHECK(forward_flops(sized(2, 10, 20, 64, true, "").params) == 2.0 * 2 * 10 * 20 * 64);
  const Params p = sized(2, 10, 20, 16, false, "").params;
  CHECK(query_buffer("o").locate(p, 10 * 16 + 3 * 16 + 5) == "head 1, query 3, dim 5");
  CHECK(key_buffer("k").locate(p, 21 * 16 + 2) == "head 1, key 1, dim 2");
  CHECK(row_buffer("lse").locate(p, 17) == "head 1, query 7");
}

TEST_CASE("the case list covers issue 5's shapes and each kind of trap") {
  const std::vector<TestCase> list = cases();
  std::set<std::string> names;
  for (const TestCase& t : list) CHECK(names.insert(t.name).second);
  for (const char* name :
       {"1x1x1x16", "1x17x17x32_causal", "2x127x129x64", "3x1000x1000x64", "1x64x300x128_causal",
        "2x300x64x64_causal", "4x1024x1024x128_causal", "large_logits", "scale_0.3"}) {
    CHECK(names.count(name) == 1);
  }
  CHECK(std::count_if(list.begin(), list.end(), [](const TestCase& t) { return t.perf && !t.sim; }) == 3);

  // Large logits: most rows' largest score is past float exp's range (measured: 85%), so a kernel without
  // a running max overflows there.
  const TestCase& large = trial::case_named(flash(), "large_logits");
  const Shape shape = shape_of(large.params);
  const Buffers in = qkv(large);
  std::vector<double> s(shape.n_k);
  int64_t overflowing = 0;
  for (int64_t row = 0; row < shape.bh * shape.n_q; ++row) {
    scores(shape, in[0].data(), in[1].data(), row / shape.n_q, row % shape.n_q, s.data());
    overflowing += *std::max_element(s.begin(), s.end()) > 88.8;
  }
  CHECK(overflowing > shape.bh * shape.n_q * 3 / 4);

  // The scratch rule bites on the simulator: an n_q x n_k float matrix there is over the limit.
  const Params& square = trial::case_named(flash(), "1x640x640x16_causal").params;
  CHECK(640.0 * 640 * sizeof(float) > 3 * max_scratch_bytes(square));
}

TEST_CASE("a right float32 flash kernel passes every simulator case, with a margin") {
  double worst = 0;
  for (const uint64_t seed : {1, 2, 3}) {
    for (const TestCase& test : flash().cases) {
      if (!test.sim) continue;
      CAPTURE(test.name);
      std::vector<float> o, lse;
      float32_flash(shape_of(test.params), draw_inputs(flash(), test, seed), o, lse);
      const CaseResult r = judge(test, o, lse, trial::launched(), seed);
      INFO(r.message, " ", trial::all_ids(r));
      CHECK(r.status == CaseStatus::passed);
      for (const BufferCheck& c : r.checks) worst = std::max(worst, c.max_abs_err);
    }
  }
  MESSAGE("worst absolute error of a float32 flash kernel: ", worst);
  CHECK(worst < flash().tolerance.atol / 2);
}

TEST_CASE("the scratch rule: an n x n allocation fails the case, with the reason") {
  const TestCase& test = trial::case_named(flash(), "1x640x640x16_causal");
  const Reference r = reference_of(shape_of(test.params), qkv(test));
  protocol::CaseRecord record = trial::launched();
  // Unknown: no rule.
  CHECK(judge(test, to_float(r.o), to_float(r.lse), record).status == CaseStatus::passed);
  // A few buffers like q: allowed.
  record.scratch_bytes = record.scratch_allocated_bytes = 4 * (640 + 640) * 16 * sizeof(float);
  CHECK(judge(test, to_float(r.o), to_float(r.lse), record).status == CaseStatus::passed);
  // A workspace an earlier, larger case sized and this call reuses: held (reported), not allocated by this
  // call, so the rule does not apply to it.
  record.scratch_bytes = 640 * 640 * sizeof(float);
  CHECK(judge(test, to_float(r.o), to_float(r.lse), record).status == CaseStatus::passed);
  record.scratch_allocated_bytes = 640 * 640 * sizeof(float);
  const CaseResult over = judge(test, to_float(r.o), to_float(r.lse), record);
  CHECK(over.status == CaseStatus::failed);
  CHECK(trial::message_of(over, "scratch_too_large").find("n_q x n_k") != std::string::npos);
  CHECK(trial::message_of(over, "scratch_too_large").find("allocated 1638400 bytes") != std::string::npos);
  CHECK(over.message.find("too much device memory") != std::string::npos);
}

TEST_CASE("outputs right for another problem get that problem's diagnosis, and right ones none") {
  const TestCase& test = trial::case_named(flash(), "2x127x129x64_causal");
  const Shape shape = shape_of(test.params);
  const Buffers in = qkv(test);
  const auto judged = [&](const Shape& other) {
    const Reference r = reference_of(other, in);
    return judge(test, to_float(r.o), to_float(r.lse));
  };
  const CaseResult right = judged(shape);
  CHECK(right.status == CaseStatus::passed);
  CHECK(right.diagnoses.empty());

  Shape top_left = shape, off_by_one = shape;
  top_left.diagonal = 0;
  off_by_one.diagonal -= 1;
  CHECK(trial::all_ids(judged(top_left)) == "causal_top_left ");
  CHECK(trial::all_ids(judged(off_by_one)) == "causal_off_by_one ");

  // A causal key loop one tile of 128 short: the case's one block of 64 rows sees keys 0..255 of 300.
  const TestCase& long_keys = trial::case_named(flash(), "1x64x300x128_causal");
  Shape tile_short = shape_of(long_keys.params);
  tile_short.n_k = 256;  // one head: the first 256 rows of k and v are the keys it keeps
  const Reference cut = reference_of(tile_short, qkv(long_keys));
  CHECK(trial::all_ids(judge(long_keys, to_float(cut.o), to_float(cut.lse))) == "causal_tile_skipped ");

  const TestCase& scaled = trial::case_named(flash(), "scale_0.3");
  Shape usual = shape_of(scaled.params);
  usual.scale = 1 / std::sqrt(32.0);
  const Reference r = reference_of(usual, qkv(scaled));
  CHECK(trial::all_ids(judge(scaled, to_float(r.o), to_float(r.lse))) == "scale_hard_coded ");
}

TEST_CASE("lse in base 2, o times l, padded keys: each is named from the outputs alone") {
  const TestCase& test = trial::case_named(flash(), "1x64x300x128");
  const Shape shape = shape_of(test.params);
  const Buffers in = qkv(test);
  const Reference r = reference_of(shape, in);
  std::vector<double> s(shape.n_k);
  std::vector<float> lse2 = to_float(r.lse), unnormalized = to_float(r.o), padded_o = to_float(r.o),
                     padded_lse = to_float(r.lse);
  for (int64_t i = 0; i < shape.n_q; ++i) {
    lse2[i] = static_cast<float>(r.lse[i] / std::log(2.0));
    scores(shape, in[0].data(), in[1].data(), 0, i, s.data());
    const double m = *std::max_element(s.begin(), s.end()), l = std::exp(r.lse[i] - m);
    const double extra = 4 * std::exp(-m);  // four keys of score 0 and v = 0, relative to m
    for (int64_t x = 0; x < shape.d; ++x) {
      unnormalized[i * shape.d + x] = static_cast<float>(r.o[i * shape.d + x] * l);
      padded_o[i * shape.d + x] = static_cast<float>(r.o[i * shape.d + x] * l / (l + extra));
    }
    padded_lse[i] = static_cast<float>(m + std::log(l + extra));
  }
  CHECK(trial::all_ids(judge(test, to_float(r.o), lse2)) == "lse_wrong_base ");
  CHECK(trial::all_ids(judge(test, unnormalized, to_float(r.lse))) == "o_not_normalized ");
  CHECK(trial::all_ids(judge(test, padded_o, padded_lse)) == "key_tail_unmasked ");
}
