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
  // > 0: the row is split among this many threads, each summing its columns c = t, t + threads, ...
  // in order, and the threads' results are combined in a tree (sum and sum_columns then do not apply).
  int64_t threads = 0;
  bool online = false;        // with threads: one pass per thread keeping a running (max, sum)
  bool rescale = true;        // online: rescale the sum when the max grows (false: the classic bug)
  bool guard_neg_inf = true;  // online: skip exp(x - max) while max is -inf (false: -inf - -inf = NaN)
  int64_t max_columns = -1;   // with threads, not online: the max of columns [0, max_columns) only
  int64_t tile = 0;           // > 0: each tile of this many columns normalized on its own (the bug)
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

struct Normalizer {  // a row's (or part of a row's) max and sum of exp(x - max)
  float max = -INFINITY, sum = 0;
};

inline Normalizer combine(Normalizer a, Normalizer b, const Kernel& k) {
  const float max = std::max(a.max, b.max);
  if (max == -INFINITY && k.guard_neg_inf) return {max, 0};
  if (!k.rescale) return {max, a.sum + b.sum};
  return {max, a.sum * exp_of(a.max - max, k.fast_exp) + b.sum * exp_of(b.max - max, k.fast_exp)};
}

inline Normalizer combine_tree(const Normalizer* parts, int64_t n, const Kernel& k) {
  if (n == 1) return parts[0];
  const int64_t half = n / 2;
  return combine(combine_tree(parts, half, k), combine_tree(parts + half, n - half, k), k);
}

// One thread's share of a row: columns first, first + stride, ... below cols.
inline Normalizer thread_share(const float* in, int64_t first, int64_t stride, int64_t cols, float max,
                               const Kernel& k) {
  Normalizer n{max, 0};
  for (int64_t c = first; c < cols; c += stride) {
    if (k.online && in[c] > n.max) {
      if (k.rescale) n.sum *= exp_of(n.max - in[c], k.fast_exp);
      n.max = in[c];
    }
    if (n.max != -INFINITY || !k.guard_neg_inf) n.sum += exp_of(in[c] - n.max, k.fast_exp);
  }
  return n;
}

// A row split among threads, the way a GPU block (three-pass or online) or a warp (blocked) does it.
inline Normalizer threaded_normalizer(const float* in, int64_t cols, const Kernel& k) {
  float max = -INFINITY;
  if (!k.online) {
    const int64_t seen = k.max_columns < 0 ? cols : std::min(cols, k.max_columns);
    max = *std::max_element(in, in + seen);
  }
  std::vector<Normalizer> parts(k.threads);
  for (int64_t t = 0; t < k.threads; ++t) parts[t] = thread_share(in, t, k.threads, cols, max, k);
  return combine_tree(parts.data(), k.threads, k);
}

inline std::vector<float> softmax(const std::vector<float>& x, int64_t rows, int64_t cols,
                                  const Kernel& k = {}) {
  std::vector<float> y(x.size());
  std::vector<float> e(cols);
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = &x[r * cols];
    if (k.tile > 0) {  // each tile a softmax of its own
      for (int64_t c = 0; c < cols; c += k.tile) {
        const int64_t n = std::min(k.tile, cols - c);
        const std::vector<float> tile(in + c, in + c + n), y_tile = softmax(tile, 1, n);
        std::copy(y_tile.begin(), y_tile.end(), y.begin() + r * cols + c);
      }
      continue;
    }
    if (k.threads > 0) {
      const Normalizer n = threaded_normalizer(in, cols, k);
      for (int64_t c = 0; c < cols; ++c) y[r * cols + c] = exp_of(in[c] - n.max, k.fast_exp) / n.sum;
      continue;
    }
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
