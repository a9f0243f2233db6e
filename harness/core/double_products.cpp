#include "double_products.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace puzzle {
namespace {

using Lanes = double __attribute__((vector_size(16)));  // two doubles: one SSE2 register

Lanes widen_pair(const float* x) {
  return Lanes{x[0], x[1]};  // one load and one cvtps2pd (g++ 12; a converted float vector takes five)
}

Lanes load_lanes(const double* x) {
  Lanes lanes;
  std::memcpy(&lanes, x, sizeof lanes);
  return lanes;
}

void store_lanes(double* x, Lanes lanes) {
  std::memcpy(x, &lanes, sizeof lanes);
}

// A tile of 2 rows of a by 4 rows of b: 8 sums of two lanes, with the 6 rows' pairs, fill 14 of SSE2's 16
// registers. Rows of b are taken kColumnBlock at a time, so that they stay in L1 while every row of a
// passes them.
constexpr int64_t kTileRows = 2, kTileColumns = 4, kColumnBlock = 64;

}  // namespace

void dot_products(const float* a, int64_t a_rows, const float* b, int64_t b_rows, int64_t d, double* out,
                  int64_t out_stride) {
  const std::vector<float> zeros(d, 0.0f);  // stands in for the rows past the edges of a and b
  const auto row = [&](const float* m, int64_t rows, int64_t i) {
    return i < rows ? m + i * d : zeros.data();
  };
  for (int64_t block = 0; block < b_rows; block += kColumnBlock) {
    const int64_t block_end = std::min(b_rows, block + kColumnBlock);
    for (int64_t r0 = 0; r0 < a_rows; r0 += kTileRows) {
      for (int64_t j0 = block; j0 < block_end; j0 += kTileColumns) {
        const float* ar[kTileRows];
        const float* br[kTileColumns];
        for (int64_t r = 0; r < kTileRows; ++r) ar[r] = row(a, a_rows, r0 + r);
        for (int64_t j = 0; j < kTileColumns; ++j) br[j] = row(b, block_end, j0 + j);
        Lanes sums[kTileRows][kTileColumns] = {};
        int64_t c = 0;
        for (; c + 2 <= d; c += 2) {  // unrolled, so that the sums stay in registers
          Lanes bv[kTileColumns];
#pragma GCC unroll 4
          for (int64_t j = 0; j < kTileColumns; ++j) bv[j] = widen_pair(br[j] + c);
#pragma GCC unroll 2
          for (int64_t r = 0; r < kTileRows; ++r) {
            const Lanes av = widen_pair(ar[r] + c);
#pragma GCC unroll 4
            for (int64_t j = 0; j < kTileColumns; ++j) sums[r][j] += av * bv[j];
          }
        }
        for (int64_t r = 0; r < std::min(kTileRows, a_rows - r0); ++r) {
          for (int64_t j = 0; j < std::min(kTileColumns, block_end - j0); ++j) {
            double even = sums[r][j][0];
            if (c < d) even += static_cast<double>(ar[r][c]) * br[j][c];  // an odd d's last term
            out[(r0 + r) * out_stride + j0 + j] = even + sums[r][j][1];
          }
        }
      }
    }
  }
}

void add_products(double* c, int64_t c_rows, const double* w, int64_t w_stride, const float* b, int64_t terms,
                  int64_t d) {
  // 4 rows of c by 4 of its columns: 8 sums of two lanes, 2 pairs of b_t and a weight, in registers.
  // Terms are taken kColumnBlock at a time, so that their rows of b stay in L1 across the rows of c.
  constexpr int64_t kRows = 4;
  const std::vector<double> no_weights(std::min(terms, kColumnBlock), 0.0);  // for rows past c's edge
  std::vector<double> spare(kRows * d);                                      // where their sums go
  for (int64_t block = 0; block < terms; block += kColumnBlock) {
    const int64_t block_terms = std::min(kColumnBlock, terms - block);
    for (int64_t r0 = 0; r0 < c_rows; r0 += kRows) {
      double* cr[kRows];
      const double* wr[kRows];
      for (int64_t r = 0; r < kRows; ++r) {
        const bool inside = r0 + r < c_rows;
        cr[r] = inside ? c + (r0 + r) * d : spare.data() + r * d;
        wr[r] = inside ? w + (r0 + r) * w_stride + block : no_weights.data();
      }
      const float* bt = b + block * d;
      int64_t x = 0;
      for (; x + 4 <= d; x += 4) {
        Lanes sums[kRows][2];
        for (int64_t r = 0; r < kRows; ++r) {
          sums[r][0] = load_lanes(cr[r] + x);
          sums[r][1] = load_lanes(cr[r] + x + 2);
        }
        for (int64_t t = 0; t < block_terms; ++t) {
          const Lanes low = widen_pair(bt + t * d + x), high = widen_pair(bt + t * d + x + 2);
#pragma GCC unroll 4
          for (int64_t r = 0; r < kRows; ++r) {
            const Lanes weight = {wr[r][t], wr[r][t]};
            sums[r][0] += weight * low;
            sums[r][1] += weight * high;
          }
        }
        for (int64_t r = 0; r < kRows; ++r) {
          store_lanes(cr[r] + x, sums[r][0]);
          store_lanes(cr[r] + x + 2, sums[r][1]);
        }
      }
      for (; x < d; ++x) {  // columns past the last whole 4, in the same order
        for (int64_t r = 0; r < kRows; ++r) {
          double sum = cr[r][x];
          for (int64_t t = 0; t < block_terms; ++t) sum += wr[r][t] * bt[t * d + x];
          cr[r][x] = sum;
        }
      }
    }
  }
}

}  // namespace puzzle
