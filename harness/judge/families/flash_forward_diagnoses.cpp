// Puzzle 5's diagnoses. Most bugs of a flash-attention forward kernel give outputs that are exactly right
// for a slightly different problem (another causal diagonal, another scale) or that relate to the right
// ones row by row (o times l, lse in base 2): each diagnosis tests one such hypothesis on every wrong row.
#include "families/flash_forward_diagnoses.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "compare.hpp"
#include "families/attention_family.hpp"
#include "format.hpp"
#include "judges.hpp"

namespace puzzle::puzzles {
namespace {

using attention::Shape;

// The case's outputs and answers, one query row (d values of o, one lse) at a time.
struct Rows {
  const CaseEvidence& e;
  Shape shape;
  int64_t count() const { return shape.bh * shape.n_q; }
  const float* o(int64_t row) const { return (*e.outputs)[0].data() + row * shape.d; }
  float lse(int64_t row) const { return (*e.outputs)[1][row]; }
  const double* want_o(int64_t row) const { return (*e.expected)[0].data() + row * shape.d; }
  double want_lse(int64_t row) const { return (*e.expected)[1][row]; }
  bool ok(float got, double want) const {
    return compare_element(got, want, e.puzzle->tolerance) == Outcome::ok;
  }
  // o's element (row, c) against `want`, with the judge's allowance for it (16-bit puzzles round P and o).
  bool o_close(int64_t row, int64_t c, float got, double want) const {
    const double allowance =
        e.allowance && !e.allowance->empty() ? (*e.allowance)[0][row * shape.d + c] : 0.0;
    return compare_element(got, want, e.puzzle->tolerance, allowance) == Outcome::ok;
  }
  bool o_ok(int64_t row) const {
    for (int64_t c = 0; c < shape.d; ++c) {
      if (!o_close(row, c, o(row)[c], want_o(row)[c])) return false;
    }
    return true;
  }
  bool lse_ok(int64_t row) const { return ok(lse(row), want_lse(row)); }
  // The largest score row `row` sees, in double (-inf for a row that sees none).
  double max_score(int64_t row) const {
    std::vector<double> s(shape.n_k);
    attention::scores(shape, (*e.inputs)[0].data(), (*e.inputs)[1].data(), row / shape.n_q, row % shape.n_q,
                      s.data());
    return *std::max_element(s.begin(), s.end());
  }
};

// Whether `holds` is true of every row that is wrong, and some row is.
template <class Holds>
bool every_wrong_row(const Rows& rows, Holds holds) {
  bool any = false;
  for (int64_t r = 0; r < rows.count(); ++r) {
    if (rows.o_ok(r) && rows.lse_ok(r)) continue;
    if (!holds(r)) return false;
    any = true;
  }
  return any;
}

// The outputs are right, within tolerance, for the problem `other` instead of the case's. Head by head,
// so that a wrong hypothesis costs one head's reference, not the whole case's.
bool right_for(const Rows& rows, const Shape& other) {
  const Buffers& in = *rows.e.inputs;
  Shape head = other;
  head.bh = 1;
  const int64_t q_size = other.n_q * other.d, k_size = other.n_k * other.d;
  std::vector<double> o(q_size), lse(other.n_q);
  for (int64_t h = 0; h < other.bh; ++h) {
    attention::forward(head, in[0].data() + h * q_size, in[1].data() + h * k_size, in[2].data() + h * k_size,
                       o.data(), lse.data());
    for (int64_t i = 0; i < other.n_q; ++i) {
      const int64_t row = h * other.n_q + i;
      if (!rows.ok(rows.lse(row), lse[i])) return false;
      for (int64_t c = 0; c < other.d; ++c) {
        if (!rows.o_close(row, c, rows.o(row)[c], o[i * other.d + c])) return false;
      }
    }
  }
  return true;
}

void wrong_mask(const Rows& rows, std::vector<Diagnosis>& out) {
  const Shape& shape = rows.shape;
  if (!shape.causal) return;
  const std::string rule =
      "query i sees key j iff j <= i + n_k - n_q (here i + " + std::to_string(shape.diagonal) + ")";
  Shape top_left = shape;
  top_left.diagonal = 0;
  if (shape.diagonal != 0 && right_for(rows, top_left)) {
    out.push_back({"causal_top_left",
                   "the outputs are right for a causal mask aligned top-left (query i sees keys j <= i) but "
                   "n_q = " +
                       std::to_string(shape.n_q) + " and n_k = " + std::to_string(shape.n_k) +
                       ": the mask is aligned bottom-right, so that the last query sees every key: " + rule});
    return;
  }
  for (const int64_t shift : {-1, 1}) {
    Shape shifted = shape;
    shifted.diagonal += shift;
    if (!right_for(rows, shifted)) continue;
    out.push_back({"causal_off_by_one",
                   std::string("the outputs are right for a causal mask one key ") +
                       (shift > 0 ? "wider (each query also sees the key after its diagonal)"
                                  : "narrower (each query misses the key on its diagonal)") +
                       ": " + rule + ". Compare with <= rather than <, and mind the tile offsets"});
    return;
  }
}

// The number of keys K, a multiple of 16 below the keys row `row` sees, such that its o and lse are right
// for attention over its first K keys only (K = 0: o = 0, lse = -inf); -1 if none. The prefix's lse is
// computed along the keys, o only where lse already agrees.
int64_t keys_cut_at_tile(const Rows& rows, int64_t row) {
  const Shape& s = rows.shape;
  const int64_t head = row / s.n_q, seen = s.visible_keys(row % s.n_q);
  std::vector<double> score(s.n_k);
  attention::scores(s, (*rows.e.inputs)[0].data(), (*rows.e.inputs)[1].data(), head, row % s.n_q,
                    score.data());
  const float* v = (*rows.e.inputs)[2].data() + head * s.n_k * s.d;
  double m = -INFINITY, l = 0;
  for (int64_t cut = 0; cut < seen; cut += 16) {
    for (int64_t j = std::max<int64_t>(cut - 16, 0); j < cut; ++j) {
      const double m_new = std::max(m, score[j]);
      l = l * std::exp(m - m_new) + std::exp(score[j] - m_new);
      m = m_new;
    }
    if (!rows.ok(rows.lse(row), cut == 0 ? -INFINITY : m + std::log(l))) continue;
    bool o_right = true;
    for (int64_t c = 0; c < s.d && o_right; ++c) {
      double o = 0;
      for (int64_t j = 0; j < cut; ++j) o += std::exp(score[j] - m) / l * v[j * s.d + c];
      o_right = rows.o_close(row, c, rows.o(row)[c], o);
    }
    if (o_right) return cut;
  }
  return -1;
}

// A causal key loop that stops a tile early: every wrong row is right for attention over its first K keys
// only, K a multiple of 16 below the keys it sees (the start of the tile that holds its diagonal).
void causal_tile_skipped(const Rows& rows, std::vector<Diagnosis>& out) {
  const Shape& s = rows.shape;
  if (!s.causal) return;
  int64_t example = -1, example_keys = 0;
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    const int64_t keys = keys_cut_at_tile(rows, r);
    if (keys >= 0 && example < 0) example = r, example_keys = keys;
    return keys >= 0;
  });
  if (!explained) return;
  out.push_back(
      {"causal_tile_skipped",
       "every wrong row is right for attention over only its first keys, up to a tile boundary "
       "(query " +
           std::to_string(example % s.n_q) + " of head " + std::to_string(example / s.n_q) + ": its first " +
           std::to_string(example_keys) + " of the " + std::to_string(s.visible_keys(example % s.n_q)) +
           " keys it sees): the causal loop stops a key tile early. A block of rows needs every tile "
           "up to the one holding its last row's last key, min(row0 + rows, n_q) - 1 + n_k - n_q"});
}

void hard_coded_scale(const Rows& rows, std::vector<Diagnosis>& out) {
  Shape usual = rows.shape;
  usual.scale = 1 / std::sqrt(static_cast<double>(usual.d));
  if (std::abs(usual.scale - rows.shape.scale) < 1e-9 || !right_for(rows, usual)) return;
  out.push_back(
      {"scale_hard_coded", "the outputs are right for scale = 1/sqrt(d) = " + format_number(usual.scale, 4) +
                               ", but this case passes scale = " + format_number(rows.shape.scale, 4) +
                               ": multiply the scores by the `scale` argument"});
}

// exp overflows float above ~88.7; scores far below zero make every exp(s) 0 and l = 0, which is what a
// running max that starts at 0 instead of -inf gives.
void missing_running_max(const Rows& rows, std::vector<Diagnosis>& out) {
  double highest = 0, lowest = 0;  // the blown-up rows' most extreme max scores, each side of zero
  const auto blown_up = [&](int64_t r) {
    bool finite = std::isfinite(rows.lse(r)) || std::isinf(rows.want_lse(r));
    for (int64_t c = 0; c < rows.shape.d; ++c) finite &= std::isfinite(rows.o(r)[c]);
    if (finite) return false;
    const double m = rows.max_score(r);  // -inf for a row that sees no key: another bug (empty_rows)
    if (!std::isfinite(m) || std::abs(m) <= 87) return false;
    highest = std::max(highest, m);
    lowest = std::min(lowest, m);
    return true;
  };
  if (!every_wrong_row(rows, blown_up)) return;
  const std::string fix =
      "Keep a running max m of each row's scores, starting at -inf (not 0), and use exp(s - m), rescaling l "
      "and O by exp(m_old - m_new) when m grows";
  if (highest == 0) {
    out.push_back(
        {"missing_running_max", "inf or NaN only in rows whose scores are all far below zero (a max of " +
                                    format_number(lowest, 4) +
                                    "): exp(s) underflows to 0 for every key, so l = 0. " + fix});
  } else {
    out.push_back({"missing_running_max", "inf or NaN only in rows whose scores reach |s| = " +
                                              format_number(std::max(highest, -lowest), 4) +
                                              ": exp(s) overflows float above 88.7. " + fix});
  }
}

void lse_wrong_base(const Rows& rows, std::vector<Diagnosis>& out) {
  const double log2e = std::numbers::log2e;
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    if (!rows.o_ok(r)) return false;
    const double m = rows.max_score(r), want = rows.want_lse(r);
    return rows.ok(rows.lse(r), want * log2e) || rows.ok(rows.lse(r), m + (want - m) * log2e);
  });
  if (!explained) return;
  out.push_back({"lse_wrong_base",
                 "o is right, and lse is the logsumexp in base 2 (or m + log2(l)): lse must be the natural "
                 "log, m + logf(l). With exp2f and scores in base-2 units (s * log2(e)), convert back: "
                 "lse = ln(2) * (m + log2(l))"});
}

// lse = m + log(l) with the row's max m still in raw units (q . k, before the scale: a kernel that
// folds the scale into exp2 keeps it so) where scale * m belongs: o is right, and lse is off by the same
// multiple of every wrong row's largest raw score.
void lse_unscaled_max(const Rows& rows, std::vector<Diagnosis>& out) {
  const double scale = rows.shape.scale;
  std::vector<std::pair<double, double>> raw_max_and_error;  // per wrong row
  const bool o_right = every_wrong_row(rows, [&](int64_t r) {
    const double raw_max = rows.max_score(r) / scale, error = rows.lse(r) - rows.want_lse(r);
    if (!rows.o_ok(r) || !std::isfinite(raw_max) || !std::isfinite(error)) return false;
    raw_max_and_error.emplace_back(raw_max, error);
    return true;
  });
  if (!o_right) return;
  double cross = 0, square = 0;  // least squares: error = factor * raw_max
  for (const auto& [raw_max, error] : raw_max_and_error)
    cross += raw_max * error, square += raw_max * raw_max;
  if (!(square > 0)) return;
  const double factor = cross / square;
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    return rows.ok(rows.lse(r), rows.want_lse(r) + factor * rows.max_score(r) / scale);
  });
  if (!explained || std::abs(factor) < 1e-3) return;
  out.push_back(
      {"lse_unscaled_max",
       "o is right, and lse is off by " + format_number(factor, 3) +
           " times each wrong row's largest raw score q . k: the max m went into lse unscaled. "
           "Where m is kept in raw units (the scale folded into exp2's argument), lse = m * scale + "
           "log(l), m * scale_log2 in base 2 (this case's scale is " +
           format_number(scale, 4) + ")"});
}

// V's B fragments for O += P V loaded by ldmatrix without .trans: each lane gets the pairs of V's 8 x 8
// block transposed, so o is right for V with every block of 8 keys x 8 columns transposed in place (keys
// past n_k loaded as zeros), and lse, which V does not enter, is right. Judged with that V's own
// reference and bf16 allowance.
void v_not_transposed(const Rows& rows, std::vector<Diagnosis>& out) {
  const Shape& s = rows.shape;
  const CaseEvidence& e = rows.e;
  if (e.puzzle->inputs[2].dtype == Dtype::f32 || s.d % 8 != 0) return;
  if (!every_wrong_row(rows, [&](int64_t r) { return rows.lse_ok(r); })) return;
  Buffers inputs = *e.inputs;
  const std::vector<float>& v = (*e.inputs)[2];
  for (int64_t h = 0; h < s.bh; ++h) {
    for (int64_t j = 0; j < s.n_k; ++j) {
      for (int64_t c = 0; c < s.d; ++c) {
        const int64_t key = j / 8 * 8 + c % 8, column = c / 8 * 8 + j % 8;
        inputs[2][(h * s.n_k + j) * s.d + c] = key < s.n_k ? v[(h * s.n_k + key) * s.d + column] : 0.0f;
      }
    }
  }
  const RefBuffers want = expected_outputs(*e.puzzle, *e.test, inputs);
  const RefBuffers allowance = error_allowance(*e.puzzle, *e.test, inputs);
  const std::vector<float>& o = (*e.outputs)[0];
  for (size_t i = 0; i < o.size(); ++i) {
    const double room = allowance.empty() ? 0.0 : allowance[0][i];
    if (compare_element(o[i], want[0][i], e.puzzle->tolerance, room) != Outcome::ok) return;
  }
  out.push_back(
      {"v_not_transposed",
       "lse is right, and o is right for V with each 8 x 8 block (8 keys x 8 columns) transposed: "
       "V's B fragments for O += P V came from ldmatrix without .trans. V is [keys, d] and P V "
       "sums over keys, so the B operand's k runs down V's columns: ldmatrix .trans hands each lane "
       "its pair of keys 2t, 2t + 1 of column g"});
}

void o_not_normalized(const Rows& rows, std::vector<Diagnosis>& out) {
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    if (!rows.lse_ok(r) || !std::isfinite(rows.want_lse(r))) return false;
    const double l = std::exp(rows.want_lse(r) - rows.max_score(r));  // the row's sum of exp(s - m)
    for (int64_t c = 0; c < rows.shape.d; ++c) {
      if (!rows.o_close(r, c, static_cast<float>(rows.o(r)[c] / l), rows.want_o(r)[c])) return false;
    }
    return true;
  });
  if (!explained) return;
  out.push_back({"o_not_normalized",
                 "lse is right and every wrong row of o is the answer times that row's l, the sum of "
                 "exp(s - m): O was never divided by l. Divide once, after the last key tile"});
}

// The least specific diagnosis: flash_forward_diagnoses asks it only when no other one fits.
void o_not_rescaled(const Rows& rows, std::vector<Diagnosis>& out) {
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    if (!rows.lse_ok(r)) return false;
    for (int64_t c = 0; c < rows.shape.d; ++c) {
      if (!std::isfinite(rows.o(r)[c])) return false;  // NaN, inf or never written: something else
    }
    return true;
  });
  if (!explained) return;
  out.push_back({"o_not_rescaled",
                 "lse is right on every row, so the running max m and sum l are; o is wrong. The usual "
                 "cause: when a tile raises the max from m_old to m_new, l is rescaled by exp(m_old - "
                 "m_new) but the accumulator O is not (it must be, with the same factor, before P V is "
                 "added). Otherwise check how P and V reach O += P V: V's rows and columns, and on tensor "
                 "cores P's A fragment (pairs of keys 2t, 2t + 1 of rows g, g + 8, then keys 8 further) and "
                 "V's ldmatrix .trans"});
}

// Keys with score 0 and v = 0 (a zero-filled tile past n_k) added to a row: l grows to l + extra, so
// lse grows by log(1 + extra / l) and o shrinks by the same factor.
void key_tail_unmasked(const Rows& rows, std::vector<Diagnosis>& out) {
  bool whole_keys = true;  // every row's sum grew by a whole number of exp(0) = 1 terms
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    const double grew = static_cast<double>(rows.lse(r)) - rows.want_lse(r);
    if (!(grew > 0) || !std::isfinite(grew) || rows.lse_ok(r)) return false;
    for (int64_t c = 0; c < rows.shape.d; ++c) {
      if (!rows.o_close(r, c, static_cast<float>(rows.o(r)[c] * std::exp(grew)), rows.want_o(r)[c]))
        return false;
    }
    // sum_j exp(s_j) grew by `extra`: whole keys of score 0 add 1 each, a sum l that missed a rescale adds
    // a fraction. Where float's lse cannot resolve a unit (large scores), the keys stay the likelier cause.
    const double extra = std::exp(rows.want_lse(r)) * std::expm1(grew);
    const double noise = std::exp(static_cast<double>(rows.lse(r))) * (1e-6 + 2e-7 * std::abs(rows.lse(r)));
    whole_keys &= noise > 0.25 || (extra > 0.5 && std::abs(extra - std::round(extra)) < 0.1 + noise);
    return true;
  });
  if (!explained) return;
  if (!whole_keys) {
    out.push_back({"l_not_rescaled",
                   "lse too large and o too small by the same factor on every wrong row: the sum l is larger "
                   "than the sum of exp(s - m). When a tile raises the max from m_old to m_new, rescale l "
                   "by exp(m_old - m_new), as you do O, before adding the tile's exp(s - m_new)"});
    return;
  }
  out.push_back({"key_tail_unmasked",
                 "wrong rows look as if extra keys with v = 0 were added to them: lse too large, o too small "
                 "by the same factor. n_k = " +
                     std::to_string(rows.shape.n_k) +
                     ": are the keys past n_k in the last tile (loaded as zeros, score 0) given the score "
                     "-INFINITY before the max and exp?"});
}

// o * l is right (O is) but l is not, either way: lse off by log(l' / l) and o by l / l' on every wrong
// row. Summed over the wrong lanes, or rescaled wrongly, in either direction (key_tail_unmasked and
// l_not_rescaled are the cases where l only grows).
void row_sum_wrong(const Rows& rows, std::vector<Diagnosis>& out) {
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    const double shift = static_cast<double>(rows.lse(r)) - rows.want_lse(r);
    if (!std::isfinite(shift) || rows.lse_ok(r)) return false;
    for (int64_t c = 0; c < rows.shape.d; ++c) {
      if (!rows.o_close(r, c, static_cast<float>(rows.o(r)[c] * std::exp(shift)), rows.want_o(r)[c]))
        return false;
    }
    return true;
  });
  if (!explained) return;
  out.push_back({"row_sum_wrong",
                 "on every wrong row, lse is off by log(x) and o by 1 / x for some factor x: O is right, the "
                 "row sum l is not. Check how l is summed (a row's values are spread over the 4 lanes of a "
                 "quad: shuffles with offsets 1 and 2) and rescaled when the max grows"});
}

// On tensor cores a row's o is spread over the 4 lanes of a quad, lane t holding the columns c with
// (c % 8) / 2 == t, and each lane divides by the l it has. A quad reduction of l that misses or mixes
// lanes leaves each lane its own wrong l: on every wrong row, o is the right o times one factor per lane
// of the quad, and those factors differ.
void quad_sums_differ(const Rows& rows, std::vector<Diagnosis>& out) {
  if (rows.shape.d % 8 != 0) return;
  const bool explained = every_wrong_row(rows, [&](int64_t r) {
    double factor[4] = {};
    for (int t = 0; t < 4; ++t) {  // least squares: got = factor * want over lane t's columns
      double cross = 0, square = 0;
      for (int64_t c = 2 * t; c < rows.shape.d; c += (c % 2 == 0 ? 1 : 7)) {
        cross += rows.o(r)[c] * rows.want_o(r)[c];
        square += rows.want_o(r)[c] * rows.want_o(r)[c];
      }
      if (!(square > 0) || !(cross != 0)) return false;
      factor[t] = cross / square;
      for (int64_t c = 2 * t; c < rows.shape.d; c += (c % 2 == 0 ? 1 : 7)) {
        if (!rows.o_close(r, c, static_cast<float>(rows.o(r)[c] / factor[t]), rows.want_o(r)[c]))
          return false;
      }
    }
    const auto [low, high] = std::minmax_element(factor, factor + 4);
    return *high > *low * (1 + 1e-3);
  });
  if (!explained) return;
  out.push_back({"quad_sums_differ",
                 "on every wrong row, o is the right o times a factor that differs between the 4 lanes of "
                 "the quad holding the row (columns 2t, 2t + 1 of every 8 belong to lane t): each lane "
                 "divided by its own sum l. The quad must add its 4 shares of l (and take the max of its 4 "
                 "maxima) with __shfl_xor_sync offsets 1 and 2 before any lane uses them"});
}

void empty_rows(const Rows& rows, std::vector<Diagnosis>& out) {
  const Shape& s = rows.shape;
  if (!s.causal || s.n_q <= s.n_k) return;
  bool any_nan = false;
  const bool only_empty = every_wrong_row(rows, [&](int64_t r) {
    for (int64_t c = 0; c < s.d; ++c) any_nan |= std::isnan(rows.o(r)[c]);
    any_nan |= std::isnan(rows.lse(r));
    return s.visible_keys(r % s.n_q) == 0;
  });
  if (!only_empty) return;
  out.push_back(
      {"empty_rows_wrong",
       "only the rows that see no key are wrong: with causal and n_q > n_k, queries 0.." +
           std::to_string(s.n_q - s.n_k - 1) +
           " of each head see none (j <= i + n_k - n_q < 0). They must get o = 0 and lse = -INFINITY " +
           (any_nan ? "(l = 0 there: o = O / l is 0/0 = NaN, so test l or skip the row)"
                    : "(these rows got finite values: with a finite mask value such as -1e30 or -FLT_MAX, "
                      "exp(mask - m) is 1 where every key is masked and the row averages v; mask with "
                      "-INFINITY, or test whether the row sees any key)")});
}

}  // namespace

void flash_forward_diagnoses(const CaseEvidence& e, std::vector<Diagnosis>& out) {
  if (!e.checks[0].available || !e.checks[1].available) return;
  if (e.checks[0].mismatches + e.checks[1].mismatches == 0) return;
  const Rows rows{e, attention::shape_of(e.test->params)};
  const size_t before = out.size();
  missing_running_max(rows, out);
  empty_rows(rows, out);
  wrong_mask(rows, out);
  if (out.size() == before) causal_tile_skipped(rows, out);
  hard_coded_scale(rows, out);
  lse_wrong_base(rows, out);
  if (out.size() == before) lse_unscaled_max(rows, out);
  o_not_normalized(rows, out);
  key_tail_unmasked(rows, out);
  if (out.size() == before) row_sum_wrong(rows, out);
  if (out.size() == before) quad_sums_differ(rows, out);
  if (out.size() == before) v_not_transposed(rows, out);
  if (out.size() == before) o_not_rescaled(rows, out);
}

}  // namespace puzzle::puzzles
