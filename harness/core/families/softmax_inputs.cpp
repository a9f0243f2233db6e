// The input kinds of the softmax puzzles and their double-precision reference.
#include "families/softmax_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "families/softmax_family.hpp"
#include "parallel_for.hpp"
#include "rng.hpp"

namespace puzzle::puzzles::softmax {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Each row kind fills one row from its own random stream (rows are drawn in parallel); `r` is the row's
// index, which picks among the kinds of row a case mixes.
using RowFill = void (*)(Rng& rng, float* row, int64_t r, int64_t cols);

// Normal values plus a few outliers per row, so that the answer is far from uniform. The outliers
// sit at ln(cols) + [0, 2): together they hold most of the row's mass, yet an ordinary element still
// gets ~1e-7 or more, well above atol, so an error anywhere in the row is seen. (Outliers at +10..+25
// would push every other element of a wide row below atol, where nothing is checked.)
void random_row(Rng& rng, float* row, int64_t /*r*/, int64_t cols) {
  const int64_t outliers = std::min<int64_t>(3, (cols + 7) / 8);
  for (int64_t c = 0; c < cols; ++c) row[c] = static_cast<float>(rng.normal());
  for (int64_t k = 0; k < outliers; ++k) {
    row[rng.below(cols)] = static_cast<float>(std::log(static_cast<double>(cols)) + rng.uniform(0, 2));
  }
}

// Four kinds of row, in turn: far from zero (exp overflows or underflows in float unless the max is
// subtracted), spread over [-1e4, 1e4] (a max taken over part of the row leaves exp(x - max) = inf),
// just past float exp's range (100, -120), and ordinary rows that work either way.
void huge_logit_row(Rng& rng, float* row, int64_t r, int64_t cols) {
  const double sign = (r / 4) % 2 == 0 ? 1.0 : -1.0;
  for (int64_t c = 0; c < cols; ++c) {
    double value = 0;
    switch (r % 4) {
      case 0:
        value = sign * 1e4 + 3 * rng.normal();
        break;
      case 1:
        value = rng.uniform(-1e4, 1e4);
        break;
      case 2:
        value = (sign > 0 ? 100.0 : -120.0) + rng.normal();
        break;
      case 3:
        value = 3 * rng.normal();
        break;
    }
    row[c] = static_cast<float>(value);
  }
}

void constant_row(Rng& /*rng*/, float* row, int64_t r, int64_t cols) {
  static constexpr float kValues[] = {0.0f, -3.5f, 5000.0f, -5000.0f, 1.0f, 88.75f, -104.0f, 1e-3f};
  std::fill_n(row, cols, kValues[r % std::size(kValues)]);
}

// Eight kinds of row, in turn; every row keeps at least one finite value, and the last kind has no
// -inf at all (a control for the NaN diagnosis).
void neg_inf_row(Rng& rng, float* row, int64_t r, int64_t cols) {
  for (int64_t c = 0; c < cols; ++c) row[c] = static_cast<float>(rng.normal());
  const auto all_but = [&](int64_t keep) {
    const float kept = row[keep];
    std::fill_n(row, cols, kNegInf);
    row[keep] = kept;
  };
  switch (r % 8) {
    case 0:
      all_but(rng.below(cols));
      break;
    case 1:
      row[0] = kNegInf;
      break;
    case 2:
      row[cols - 1] = kNegInf;
      break;
    case 3:
      row[0] = row[cols - 1] = kNegInf;
      break;
    case 4:
      for (int64_t c = 0; c < cols; c += 2) row[c] = kNegInf;
      break;
    case 5:
      all_but(cols - 1);
      break;
    case 6:
      all_but(0);
      break;
    case 7:
      break;
  }
}

// Long stretches of -inf, where a tile or a thread's whole share of the row is -inf: its max is -inf,
// and an online update exp(m_old - m_new) with both -inf is NaN. Four kinds of row, in turn, each
// with finite values left: all but the last quarter -inf (the first tiles, thousands of columns),
// the middle third -inf, alternate stretches of 4096 columns -inf, all but one middle element -inf.
void neg_inf_tile_row(Rng& rng, float* row, int64_t r, int64_t cols) {
  constexpr int64_t kStretch = 4096;
  for (int64_t c = 0; c < cols; ++c) row[c] = static_cast<float>(rng.normal());
  switch (r % 4) {
    case 0:
      std::fill_n(row, cols - std::max<int64_t>(1, cols / 4), kNegInf);
      break;
    case 1:
      std::fill(row + cols / 3, row + 2 * cols / 3, kNegInf);
      break;
    case 2:
      for (int64_t c = 0; c < cols - 1; ++c) {
        if ((c / kStretch) % 2 == 0) row[c] = kNegInf;
      }
      break;
    case 3: {
      const float kept = row[cols / 2];
      std::fill_n(row, cols, kNegInf);
      row[cols / 2] = kept;
      break;
    }
  }
}

RowFill row_fill(const std::string& kind) {
  if (kind == "random") return random_row;
  if (kind == "huge_logits") return huge_logit_row;
  if (kind == "constant_rows") return constant_row;
  if (kind == "neg_inf") return neg_inf_row;
  if (kind == "neg_inf_tiles") return neg_inf_tile_row;
  throw std::invalid_argument("softmax: unknown input kind " + kind);
}

}  // namespace

void make_inputs(int puzzle_id, const TestCase& test, uint64_t seed, Buffers& inputs) {
  const Rng rng = Rng::for_buffer(seed, puzzle_id, test.name, 0);
  const RowFill fill = row_fill(test.input_kind);
  float* x = inputs[0].data();
  const int64_t rows = rows_of(test.params), cols = cols_of(test.params);
  constexpr int64_t kElementsPerTask = 1 << 16;
  parallel_ranges(rows, kElementsPerTask / cols + 1, [&](int64_t first, int64_t end) {
    for (int64_t r = first; r < end; ++r) {
      Rng row_rng = rng.substream(static_cast<uint64_t>(r));
      fill(row_rng, x + r * cols, r, cols);
    }
  });
}

}  // namespace puzzle::puzzles::softmax
