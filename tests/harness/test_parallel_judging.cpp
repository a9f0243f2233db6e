// The parent draws, references, checks and seals the large cases on every core. Each split must give the
// answer the plain sequential computation gives, on any number of cores: the child and the parent must
// draw the same inputs, and a verdict must not depend on the machine.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compare.hpp"
#include "families/attention_backward_reference.hpp"
#include "parallel_for.hpp"
#include "protocol.hpp"
#include "random_fill.hpp"

using namespace puzzle;

TEST_CASE("parallel_ranges covers every index once, in ranges that depend on the grain alone") {
  for (const int64_t count : {0, 1, 7, 1000, 1025}) {
    std::vector<std::atomic<int>> seen(count);
    std::atomic<int> misaligned{0};
    parallel_ranges(count, 64, [&](int64_t begin, int64_t end) {
      if (begin % 64 != 0 || end - begin > 64 || (end - begin < 64 && end != count)) ++misaligned;
      for (int64_t i = begin; i < end; ++i) ++seen[i];
    });
    CHECK(misaligned == 0);
    for (int64_t i = 0; i < count; ++i) CHECK(seen[i] == 1);
  }
}

TEST_CASE("substreams are reproducible, differ by index, and leave their parent stream alone") {
  const Rng parent = Rng::for_buffer(42, 1, "8192x8192", 0);
  CHECK(parent.substream(3).next() == parent.substream(3).next());
  CHECK(parent.substream(3).next() != parent.substream(4).next());
  Rng copy = parent;
  CHECK(parent.substream(0).next() != copy.next());
  CHECK(Rng::for_buffer(43, 1, "8192x8192", 0).substream(3).next() != parent.substream(3).next());
}

TEST_CASE("random_fill equals drawing its blocks one after another, each from its own substream") {
  const Rng rng = Rng::for_buffer(7, 5, "8x2048x2048x64", 1);
  std::vector<float> parallel(3 * kRandomFillBlock + 123);
  random_fill(rng, parallel, [](Rng& block) { return static_cast<float>(block.normal()); });
  std::vector<float> sequential(parallel.size());
  for (size_t begin = 0; begin < sequential.size(); begin += kRandomFillBlock) {
    Rng block = rng.substream(begin / kRandomFillBlock);
    for (size_t i = begin; i < std::min(sequential.size(), begin + kRandomFillBlock); ++i)
      sequential[i] = static_cast<float>(block.normal());
  }
  CHECK(std::memcmp(parallel.data(), sequential.data(), parallel.size() * sizeof(float)) == 0);
}

TEST_CASE("check_buffer counts mismatches across its ranges and lists the first ones in index order") {
  constexpr int64_t kRange = 1 << 18;  // compare.cpp's range: mismatches on both sides of its edges
  const int64_t n = 3 * kRange + 5;
  std::vector<double> expected(n, 0.5);
  std::vector<float> got(n + 2 * protocol::kGuardElems, std::bit_cast<float>(protocol::kGuardBits));
  for (int64_t i = 0; i < n; ++i) got[protocol::kGuardElems + i] = 0.5f;
  const std::vector<int64_t> wrong = {5,          kRange - 1,     kRange,         kRange + 1, 2 * kRange - 1,
                                      2 * kRange, 2 * kRange + 7, 3 * kRange - 1, 3 * kRange, n - 1};
  for (int64_t i : wrong) got[protocol::kGuardElems + i] = 0.75f;
  got[protocol::kGuardElems + 2 * kRange + 3] = std::nanf("");
  const BufferSpec spec{.name = "y",
                        .elements = [n](const Params&) { return n; },
                        .locate = [](const Params&, int64_t i) { return std::to_string(i); },
                        .row_length = {}};
  const BufferCheck check = check_buffer(spec, {}, got, expected, {.atol = 1e-6, .rtol = 0}, {});
  CHECK(check.mismatches == static_cast<int64_t>(wrong.size()) + 1);
  CHECK(check.nan_count == 1);
  CHECK(check.max_abs_err == doctest::Approx(0.25));
  REQUIRE(check.first.size() == static_cast<size_t>(kListedMismatches));
  std::vector<int64_t> listed, want(wrong.begin(), wrong.begin() + 7);
  want.push_back(2 * kRange + 3);  // the NaN, between 2 kRange and 2 kRange + 7
  std::sort(want.begin(), want.end());
  for (const Mismatch& m : check.first) listed.push_back(m.index);
  CHECK(listed == want);
}

TEST_CASE("check_buffer's verdicts and error figures are compare_element's, for every kind of value") {
  // Its loop takes a shortcut for finite values: every element must still get compare_element's outcome.
  const float poison = std::bit_cast<float>(protocol::kPoisonBits), inf = INFINITY, nan = std::nanf("");
  const std::vector<float> got_values = {0.5f, 0.50004f, 0.6f, -0.5f,  1e-9f, 0.0f,
                                         inf,  -inf,     nan,  poison, 3e38f};
  const std::vector<double> want_values = {0.5, -0.5, 1e-9, 0.0, 2.0, INFINITY, -INFINITY, NAN, 3e38};
  const Tolerance tolerance{.atol = 1e-8, .rtol = 1e-4};
  std::vector<float> data;
  std::vector<double> expected, allowance;
  for (float g : got_values) {
    for (double w : want_values) {
      for (double a : {0.0, 0.2}) {
        data.push_back(g);
        expected.push_back(w);
        allowance.push_back(a);
      }
    }
  }
  const int64_t n = static_cast<int64_t>(data.size());
  std::vector<float> got(n + 2 * protocol::kGuardElems, std::bit_cast<float>(protocol::kGuardBits));
  std::copy(data.begin(), data.end(), got.begin() + protocol::kGuardElems);
  const BufferSpec spec{.name = "y",
                        .elements = [n](const Params&) { return n; },
                        .locate = [](const Params&, int64_t i) { return std::to_string(i); },
                        .row_length = {}};
  const BufferCheck check = check_buffer(spec, {}, got, expected, tolerance, allowance);

  int64_t mismatches = 0, unwritten = 0, nans = 0, infs = 0;
  double max_abs = 0, max_rel = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Outcome outcome = compare_element(data[i], expected[i], tolerance, allowance[i]);
    mismatches += outcome != Outcome::ok;
    unwritten += outcome == Outcome::unwritten;
    nans += outcome == Outcome::nan;
    infs += outcome == Outcome::inf;
    if (outcome != Outcome::unwritten && std::isfinite(data[i]) && std::isfinite(expected[i])) {
      const double error = std::abs(static_cast<double>(data[i]) - expected[i]);
      max_abs = std::max(max_abs, error);
      if (std::abs(expected[i]) >= tolerance.atol / tolerance.rtol)
        max_rel = std::max(max_rel, error / std::abs(expected[i]));
    }
  }
  CHECK(mismatches > 0);
  CHECK(check.mismatches == mismatches);
  CHECK(check.unwritten == unwritten);
  CHECK(check.nan_count == nans);
  CHECK(check.inf_count == infs);
  CHECK(check.max_abs_err == max_abs);
  CHECK(check.max_rel_err == doctest::Approx(max_rel).epsilon(1e-15));
}

TEST_CASE("a large output's seal changes with any byte, with chunks swapped, and with its length") {
  const protocol::SessionKey key{0x0123456789abcdefull, 0xfedcba9876543210ull};
  std::string bytes(3 * (1 << 20) + 17, '\0');
  std::mt19937 rng(5);
  for (char& c : bytes) c = static_cast<char>(rng());
  const std::string sealed = protocol::seal(key, bytes);
  CHECK(protocol::seal(key, bytes) == sealed);
  CHECK(protocol::seal({key.k0 + 1, key.k1}, bytes) != sealed);
  std::string changed = bytes;
  changed[2 * (1 << 20) + 5] ^= 1;
  CHECK(protocol::seal(key, changed) != sealed);
  std::string swapped = bytes;
  std::swap_ranges(swapped.begin(), swapped.begin() + (1 << 20), swapped.begin() + (1 << 20));
  CHECK(protocol::seal(key, swapped) != sealed);
  CHECK(protocol::seal(key, bytes.substr(0, bytes.size() - 1)) != sealed);
}

TEST_CASE("the backward reference in two passes (query rows, then keys) equals one pass over the rows") {
  using namespace puzzle::puzzles::attention;
  for (const bool causal : {false, true}) {
    const Shape shape{
        .bh = 2, .n_q = 45, .n_k = 37, .d = 16, .causal = causal, .scale = 0.25, .diagonal = -8};
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> uniform(-1.5f, 1.5f);
    const auto draw = [&](int64_t count) {
      std::vector<float> x(count);
      for (float& e : x) e = uniform(rng);
      return x;
    };
    const auto q = draw(shape.bh * shape.n_q * shape.d), dout = draw(q.size());
    const auto k = draw(shape.bh * shape.n_k * shape.d), v = draw(k.size());
    std::vector<double> dq(q.size()), dk(k.size()), dv(k.size());
    backward(shape, q.data(), k.data(), v.data(), dout.data(), dq.data(), dk.data(), dv.data());

    // One pass over every row of a head, as the formulas read (attention_backward_reference.cpp's header).
    std::vector<double> want_dq(q.size()), want_dk(k.size()), want_dv(k.size());
    const int64_t d = shape.d;
    for (int64_t h = 0; h < shape.bh; ++h) {
      for (int64_t i = 0; i < shape.n_q; ++i) {
        const int64_t row = (h * shape.n_q + i) * d;
        const std::vector<double> p = row_probabilities(shape, q.data(), k.data(), h, i);
        std::vector<double> dp(p.size());
        double d_i = 0;
        for (size_t j = 0; j < p.size(); ++j) {
          for (int64_t c = 0; c < d; ++c) dp[j] += double{dout[row + c]} * v[(h * shape.n_k + j) * d + c];
          d_i += p[j] * dp[j];
        }
        for (size_t j = 0; j < p.size(); ++j) {
          const int64_t key = (h * shape.n_k + static_cast<int64_t>(j)) * d;
          for (int64_t c = 0; c < d; ++c) {
            want_dq[row + c] += shape.scale * p[j] * (dp[j] - d_i) * k[key + c];
            want_dk[key + c] += shape.scale * p[j] * (dp[j] - d_i) * q[row + c];
            want_dv[key + c] += p[j] * dout[row + c];
          }
        }
      }
    }
    for (size_t e = 0; e < q.size(); ++e) CHECK(dq[e] == doctest::Approx(want_dq[e]).epsilon(1e-12).scale(1));
    for (size_t e = 0; e < k.size(); ++e) {
      CHECK(dk[e] == doctest::Approx(want_dk[e]).epsilon(1e-12).scale(1));
      CHECK(dv[e] == doctest::Approx(want_dv[e]).epsilon(1e-12).scale(1));
    }
  }
}
