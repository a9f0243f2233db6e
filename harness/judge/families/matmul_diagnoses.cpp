#include "families/matmul_diagnoses.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "compare.hpp"
#include "families/matmul_family.hpp"

namespace puzzle::puzzles::matmul {
namespace {

constexpr int kTileRows = 16, kTileCols = 8;  // one m16n8 accumulator tile
constexpr int64_t kSampled = 64;              // wrong elements a hypothesis is tried on

struct Product {
  const CaseEvidence& e;
  Shape s;
  const float* a() const { return (*e.inputs)[0].data(); }
  const float* b() const { return (*e.inputs)[1].data(); }
  const std::vector<float>& got() const { return (*e.outputs)[0]; }
  double allowance(int64_t i) const { return e.allowance->empty() ? 0.0 : (*e.allowance)[0][i]; }
  bool ok(int64_t i, double want) const {
    return compare_element(got()[i], want, e.puzzle->tolerance, allowance(i)) == Outcome::ok;
  }
  bool wrong(int64_t i) const { return !ok(i, (*e.expected)[0][i]); }
  // sum over x in [0, k_end) of a[i, x] * b_at(j, x)
  double dot(int64_t i, int64_t j, int64_t k_end, const std::function<float(int64_t, int64_t)>& b_at) const {
    double sum = 0;
    for (int64_t x = 0; x < k_end; ++x) sum += static_cast<double>(a()[i * s.k + x]) * b_at(j, x);
    return sum;
  }
  float b_row_major(int64_t j, int64_t x) const { return b()[j * s.k + x]; }
};

// Up to kSampled wrong elements, spread over the whole buffer.
std::vector<int64_t> sample_wrong(const Product& p) {
  std::vector<int64_t> wrong;
  for (int64_t i = 0; i < p.s.m * p.s.n; ++i) {
    if (p.wrong(i)) wrong.push_back(i);
  }
  if (static_cast<int64_t>(wrong.size()) <= kSampled) return wrong;
  std::vector<int64_t> sample;
  for (int64_t t = 0; t < kSampled; ++t) sample.push_back(wrong[t * wrong.size() / kSampled]);
  return sample;
}

// Whether every sampled element is right for the other problem `want(i)`, and one of them is not a zero
// (an unwritten or zero c matches too many hypotheses).
bool explains(const Product& p, const std::vector<int64_t>& sample,
              const std::function<double(int64_t)>& want) {
  bool nonzero = false;
  for (const int64_t i : sample) {
    const double w = want(i);
    if (!p.ok(i, w)) return false;
    nonzero = nonzero || w != 0;
  }
  return nonzero;
}

void b_layout(const Product& p, const std::vector<int64_t>& sample, std::vector<Diagnosis>& out) {
  const auto b_k_by_n = [&](int64_t j, int64_t x) { return p.b()[x * p.s.n + j]; };
  if (!explains(p, sample, [&](int64_t i) { return p.dot(i / p.s.n, i % p.s.n, p.s.k, b_k_by_n); })) return;
  out.push_back(
      {"b_read_as_k_by_n",
       "c is A B for b read as a [k, n] matrix, but b is [n, k], row-major: column j of B^T is row j "
       "of b, b[j * k + x]. That is why the mma's B operand is `.col`: each lane's b registers hold "
       "consecutive k of one row of b"});
}

void transposed_c(const Product& p, const std::vector<int64_t>& sample, std::vector<Diagnosis>& out) {
  // c[i * n + j] holds element (i, j); written as c[j * m + i], buffer index t holds (t % m, t / m).
  const auto b_at = [&](int64_t j, int64_t x) { return p.b_row_major(j, x); };
  if (!explains(p, sample, [&](int64_t t) { return p.dot(t % p.s.m, t / p.s.m, p.s.k, b_at); })) return;
  out.push_back({"c_transposed",
                 "c holds C^T: element (i, j) belongs at c[i * n + j] (row-major, n columns), it was "
                 "written at c[j * m + i]"});
}

// ldmatrix with .trans where the shared rows are already the fragment's (or without it where they are
// not) hands each lane the transposed 8 x 8 block: c is right for a (or b) with every 8 x 8 block of
// columns transposed in place.
void blocks_transposed(const Product& p, const std::vector<int64_t>& sample, std::vector<Diagnosis>& out) {
  if (p.s.m % 8 != 0 || p.s.n % 8 != 0) return;
  const auto transposed = [](const float* matrix, int64_t k, int64_t row, int64_t x) {
    const int64_t r0 = row / 8 * 8, x0 = x / 8 * 8;
    return matrix[(r0 + (x - x0)) * k + x0 + (row - r0)];
  };
  const auto b_t = [&](int64_t j, int64_t x) { return transposed(p.b(), p.s.k, j, x); };
  if (explains(p, sample, [&](int64_t i) { return p.dot(i / p.s.n, i % p.s.n, p.s.k, b_t); })) {
    out.push_back({"b_blocks_transposed",
                   "c is right for b with each 8 x 8 block transposed: the b fragments were loaded with "
                   "ldmatrix .trans (or built across rows). b's rows are the mma's B columns as they lie in "
                   "memory: ldmatrix without .trans"});
    return;
  }
  const auto a_t = [&](int64_t i, int64_t x) { return transposed(p.a(), p.s.k, i, x); };
  const auto b_at = [&](int64_t j, int64_t x) { return p.b_row_major(j, x); };
  const auto dot_a_t = [&](int64_t i) {
    double sum = 0;
    for (int64_t x = 0; x < p.s.k; ++x) sum += static_cast<double>(a_t(i / p.s.n, x)) * b_at(i % p.s.n, x);
    return sum;
  };
  if (explains(p, sample, dot_a_t)) {
    out.push_back({"a_blocks_transposed",
                   "c is right for a with each 8 x 8 block transposed: the a fragments were loaded with "
                   "ldmatrix .trans. a is row-major, as the mma's A operand (.row) wants: no .trans"});
  }
}

// a's m16n8k16 fragment registers handed to the mma in another order: its register r (of 4) holds the 8 x 8
// quadrant of a's 16 x 16 slice that belongs in register `order[r]` (a0: rows 0-7, k 0-7; a1: rows 8-15;
// a2: k 8-15; a3: both). c is then right for a with those quadrants moved, tile by tile (whole tiles of 16
// rows from row 0 and slices of 16 along k, as every mma-tiled kernel cuts them). b's two registers
// swapped is the same product as a's k halves swapped (a2, a3, a0, a1): that order names both.
constexpr int kAQuadrantRow[4] = {0, 8, 0, 8}, kAQuadrantK[4] = {0, 0, 8, 8};

std::string registers_named(const int* order) {
  std::string text;
  for (int r = 0; r < 4; ++r) text += (r ? ", a" : "a") + std::to_string(order[r]);
  return text;
}

void fragment_order(const Product& p, const std::vector<int64_t>& sample, std::vector<Diagnosis>& out) {
  if (p.s.k % 16 != 0) return;
  int order[4] = {0, 1, 2, 3};
  while (std::next_permutation(order, order + 4)) {
    // a as the mma saw it: element (i, x) comes from the quadrant register order[r] names.
    const auto moved_a = [&](int64_t i, int64_t x) -> double {
      const int r = (i % 16 >= 8 ? 1 : 0) + (x % 16 >= 8 ? 2 : 0), from = order[r];
      const int64_t row = i / 16 * 16 + kAQuadrantRow[from] + i % 8;
      return row < p.s.m ? p.a()[row * p.s.k + x / 16 * 16 + kAQuadrantK[from] + x % 8] : 0.0;
    };
    const auto want = [&](int64_t t) {
      double sum = 0;
      for (int64_t x = 0; x < p.s.k; ++x) sum += moved_a(t / p.s.n, x) * p.b_row_major(t % p.s.n, x);
      return sum;
    };
    if (!explains(p, sample, want)) continue;
    const std::string layout =
        "In m16n8k16 a0 = row g, k 2t, 2t + 1; a1 = row g + 8, the same k; a2 = row g, k 2t + 8, 2t + 9; "
        "a3 = row g + 8, k 2t + 8, 2t + 9; b0 = k 2t, 2t + 1 and b1 = k 2t + 8, 2t + 9 of row g of b (g = "
        "lane / 4, t = lane % 4)";
    if (order[0] == 2 && order[1] == 3 && order[2] == 0 && order[3] == 1) {
      out.push_back({"k_halves_swapped",
                     "c is right for an mma whose a and b disagree on the two halves of each slice of 16 "
                     "along k: a's registers came as a2, a3, a0, a1, or b's as b1, b0. " +
                         layout});
    } else {
      out.push_back({"a_fragment_order",
                     "c is right for an mma given a's fragment registers out of order: where a0, a1, a2, a3 "
                     "belong it got " +
                         registers_named(order) + ". " + layout});
    }
    return;
  }
}

void k_cut_short(const Product& p, const std::vector<int64_t>& sample, std::vector<Diagnosis>& out) {
  const auto b_at = [&](int64_t j, int64_t x) { return p.b_row_major(j, x); };
  for (int64_t k_end = 16; k_end < p.s.k; k_end += 16) {
    if (!explains(p, sample, [&](int64_t i) { return p.dot(i / p.s.n, i % p.s.n, k_end, b_at); })) continue;
    out.push_back({"k_cut_short", "c is the sum over the first " + std::to_string(k_end) +
                                      " of k = " + std::to_string(p.s.k) +
                                      " only: the loop over k stops early (or adds one slice of 16 and "
                                      "not the rest)"});
    return;
  }
}

// "lanes 0-3, 8-11" from a set of lanes.
std::string lane_ranges(const std::vector<bool>& lanes) {
  std::string text;
  for (int lane = 0; lane < 32;) {
    if (!lanes[lane]) {
      ++lane;
      continue;
    }
    int last = lane;
    while (last + 1 < 32 && lanes[last + 1]) ++last;
    text +=
        (text.empty() ? "" : ", ") + std::to_string(lane) + (last > lane ? "-" + std::to_string(last) : "");
    lane = last + 1;
  }
  return text;
}

// The wrong elements sit at the same places of every 16 x 8 tile: those places belong to particular
// registers and lanes of the m16n8 accumulator (PTX ISA, "Matrix fragments for mma.m16n8k16"): c0, c1 at
// row lane / 4, columns 2 (lane % 4) + {0, 1}; c2, c3 the same 8 rows further down. Said only
// where each place is wrong in (nearly) every whole tile or in none, and some register is spared. One
// tile is enough: the places are then a fact about that tile, and a learner's first failures are the
// single-tile cases.
void fragment_places(const Product& p, std::vector<Diagnosis>& out) {
  const int64_t tiles = p.s.m / kTileRows * (p.s.n / kTileCols);
  if (tiles == 0) return;
  int64_t wrong_at[kTileRows][kTileCols] = {}, seen_at[kTileRows][kTileCols] = {};
  for (int64_t i = 0; i < p.s.m / kTileRows * kTileRows; ++i) {  // whole tiles only
    for (int64_t j = 0; j < p.s.n / kTileCols * kTileCols; ++j) {
      ++seen_at[i % kTileRows][j % kTileCols];
      wrong_at[i % kTileRows][j % kTileCols] += p.wrong(i * p.s.n + j);
    }
  }
  bool registers[4] = {};
  std::vector<bool> lanes(32);
  int places = 0;
  for (int r = 0; r < kTileRows; ++r) {
    for (int c = 0; c < kTileCols; ++c) {
      const double share = static_cast<double>(wrong_at[r][c]) / seen_at[r][c];
      if (share > 0 && share < 0.75) return;  // scattered, not a place of the tile
      if (share == 0) continue;
      ++places;
      registers[(r >= 8 ? 2 : 0) + c % 2] = true;
      lanes[(r % 8) * 4 + c / 2] = true;
    }
  }
  if (places == 0 || std::count(registers, registers + 4, true) == 4 && places > 96) return;
  std::string regs;
  for (int k = 0; k < 4; ++k) {
    if (registers[k]) regs += (regs.empty() ? "c" : ", c") + std::to_string(k);
  }
  out.push_back({"fragment_places",
                 "the wrong elements are the same " + std::to_string(places) + " of the 128 places in " +
                     (tiles == 1 ? "the 16 x 8 tile" : "every 16 x 8 tile") +
                     " of c: in the m16n8k16 accumulator they are "
                     "register(s) " +
                     regs + " of lane(s) " + lane_ranges(lanes) +
                     " (c0, c1: row lane / 4, columns 2 * (lane % 4) + 0, 1; c2, c3: 8 rows below). Check "
                     "where those lanes store them, or which a/b fragment registers feed them"});
}

void sixteen_bit_rounding(const Product& p, std::vector<Diagnosis>& out) {
  // Right to about 3 significant digits everywhere: rounded through a 16-bit type somewhere.
  int64_t wrong = 0, near = 0;
  for (int64_t i = 0; i < p.s.m * p.s.n; ++i) {
    if (!p.wrong(i)) continue;
    ++wrong;
    const double want = (*p.e.expected)[0][i];
    const double error = std::abs(static_cast<double>(p.got()[i]) - want);
    near += std::isfinite(p.got()[i]) && error <= 0x1p-6 * std::abs(want) + 0x1p-6;
  }
  if (wrong == 0 || near < wrong) return;
  out.push_back({"sixteen_bit_rounding",
                 "every wrong element is off by about a 16-bit rounding (up to 2^-8 of its size in bf16): "
                 "was the running "
                 "sum, or c, kept in bf16 or fp16? The mma's accumulators are fp32 (.f32 D and C): keep them "
                 "so, and store c as float"});
}

}  // namespace

void diagnose(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  if (e.checks.empty() || !e.checks[0].available || e.checks[0].mismatches == 0) return;
  const Product p{e, shape_of(e.test->params)};
  const size_t before = out.size();
  const std::vector<int64_t> sample = sample_wrong(p);
  b_layout(p, sample, out);
  transposed_c(p, sample, out);
  k_cut_short(p, sample, out);
  blocks_transposed(p, sample, out);
  if (out.size() == before) fragment_order(p, sample, out);
  if (out.size() > before) return;  // another problem, exactly: the places and the rounding say nothing more
  sixteen_bit_rounding(p, out);
  if (out.size() > before) return;
  fragment_places(p, out);
}

}  // namespace puzzle::puzzles::matmul
