// Double-precision references shared by the puzzles.
#pragma once
#include <cstdint>

namespace puzzle::reference {

// y = softmax(x) over one row of n elements: exp(x - max) / sum, in double. -inf entries give exactly
// 0; a row that is entirely -inf has no softmax and gives NaN (as 0/0 would).
void softmax_row(const float* x, int64_t n, double* y);

}  // namespace puzzle::reference
