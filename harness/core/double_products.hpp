// Products of float matrices summed in double, for the float64 attention references: the scores q k^T, the
// gradients' dout v^T, and the sums p v, ds k, ds^T q that follow. They are most of a large case's
// reference (billions of products), and dot by dot each pair of floats was loaded, widened and summed on
// its own; in tiles, every element loaded feeds several sums, two lanes at a time (SSE2, x86-64's
// baseline): 2.5x faster on an H200's 16-core host (the backward of 8x2048x2048x64: 0.85 -> 0.34 s).
//
// Each sum runs in an order set by its own operands, never by the tile it falls in: dot_products sums the
// even terms and the odd terms of a dot product apart, in order, then adds the two; add_products adds its
// terms in order. So a row's results do not depend on its neighbours, and a . b gives the same bits as b . a.
#pragma once
#include <cstdint>

namespace puzzle {

// out[r * out_stride + j] = a_r . b_j for r < a_rows and j < b_rows, where a_r = a[r * d .. r * d + d) and
// b_j likewise (rows of d floats, one after the other).
void dot_products(const float* a, int64_t a_rows, const float* b, int64_t b_rows, int64_t d, double* out,
                  int64_t out_stride);

// c_r += sum over t < terms of w[r * w_stride + t] * b_t, for r < c_rows: c_r = c[r * d .. r * d + d) in
// double, b_t = b[t * d .. t * d + d) in float. Each element's terms are added in the order of t.
void add_products(double* c, int64_t c_rows, const double* w, int64_t w_stride, const float* b, int64_t terms,
                  int64_t d);

}  // namespace puzzle
