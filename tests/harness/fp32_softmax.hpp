// Row softmax in float32 on the CPU, computed the way GPU kernels compute it, right and wrong: the
// judge must pass the right variants on every case and diagnose the wrong ones.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace fp32 {

enum class Sum { tree, sequential };

struct Kernel {
  bool subtract_max = true;
  bool fast_exp = false;  // like __expf: exp2 of a rounded product, 2 ulp low
  Sum sum = Sum::tree;
  bool divide = true;
  int64_t sum_columns = -1;   // only columns [0, sum_columns) enter the sum (-1: all)
  int64_t twice_columns = 0;  // columns [0, twice_columns) enter the sum twice
};

inline float exp_of(float v, bool fast) {
  if (!fast) return std::exp(v);
  const float e = std::exp2(v * 1.44269504f);
  const uint32_t bits = std::bit_cast<uint32_t>(e);
  return e > 0 && bits >= 2 ? std::bit_cast<float>(bits - 2) : e;
}

inline float tree_sum(const float* v, int64_t n) {
  if (n <= 0) return 0;
  if (n == 1) return v[0];
  const int64_t half = n / 2;
  return tree_sum(v, half) + tree_sum(v + half, n - half);
}

inline std::vector<float> softmax(const std::vector<float>& x, int64_t rows, int64_t cols,
                                  const Kernel& k = {}) {
  std::vector<float> y(x.size());
  std::vector<float> e(cols);
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = &x[r * cols];
    const float max = k.subtract_max ? *std::max_element(in, in + cols) : 0.0f;
    for (int64_t c = 0; c < cols; ++c) e[c] = exp_of(in[c] - max, k.fast_exp);
    const int64_t summed = k.sum_columns < 0 ? cols : k.sum_columns;
    float sum = 0;
    if (k.sum == Sum::tree) {
      sum = tree_sum(e.data(), summed);
    } else {
      for (int64_t c = 0; c < summed; ++c) sum += e[c];
    }
    for (int64_t c = 0; c < k.twice_columns; ++c) sum += e[c];
    for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = k.divide ? e[c] / sum : e[c];
  }
  return y;
}

}  // namespace fp32
