// The attention backward pass in float32 on the CPU, computed the way puzzle 6's kernels compute it (P
// from lse, D from dout and o, a partial dq per tile of keys added into dq), right and wrong: the judge
// must pass the right one on every case and diagnose the wrong ones.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "families/attention_family.hpp"
#include "registry.hpp"

namespace fp32 {

struct Backward {
  bool subtract_lse = true;    // false: P = exp(scale * s), not normalized
  bool lse_base_2 = false;     // P = exp2(scale * s * log2(e) - lse): lse read as a base-2 logsumexp
  bool subtract_delta = true;  // false: dS = P * dP, D omitted
  bool scale_dq_dk = true;     // false: dq and dk miss their factor scale
  bool add_dq = true;          // false: each tile of keys overwrites dq instead of adding (lost updates)
  int64_t diagonal_shift = 0;  // the causal diagonal moved by this many keys (an off-by-one mask)
  int64_t tile_keys = 64;
};

struct Gradients {
  std::vector<float> dq, dk, dv;
};

inline float dot(const float* a, const float* b, int64_t d) {
  float sum = 0;
  for (int64_t c = 0; c < d; ++c) sum += a[c] * b[c];
  return sum;
}

// in: q, k, v, o, lse, dout as puzzle 6 draws them.
inline Gradients flash_backward(const puzzle::Params& params, const puzzle::Buffers& in,
                                const Backward& how = {}) {
  using puzzle::puzzles::attention::Shape;
  Shape shape = puzzle::puzzles::attention::shape_of(params);
  shape.diagonal += how.diagonal_shift;
  const int64_t d = shape.d;
  const float scale = static_cast<float>(shape.scale), grad_scale = how.scale_dq_dk ? scale : 1.0f;
  const std::vector<float>&q = in[0], &k = in[1], &v = in[2], &o = in[3], &lse = in[4], &dout = in[5];
  Gradients g{std::vector<float>(q.size()), std::vector<float>(k.size()), std::vector<float>(v.size())};
  std::vector<float> partial(d);
  for (int64_t h = 0; h < shape.bh; ++h) {
    for (int64_t k0 = 0; k0 < shape.n_k; k0 += how.tile_keys) {
      const int64_t k1 = std::min(shape.n_k, k0 + how.tile_keys);
      for (int64_t i = 0; i < shape.n_q; ++i) {
        const int64_t row = h * shape.n_q + i;
        const float* q_i = &q[row * d];
        const float* dout_i = &dout[row * d];
        const float delta = how.subtract_delta ? dot(dout_i, &o[row * d], d) : 0.0f;
        std::fill(partial.begin(), partial.end(), 0.0f);
        for (int64_t j = k0; j < k1; ++j) {
          if (!shape.sees(i, j)) continue;
          const int64_t key = (h * shape.n_k + j) * d;
          const float s = scale * dot(q_i, &k[key], d);
          const float p = how.lse_base_2     ? std::exp2(s * 1.44269504f - lse[row])
                          : how.subtract_lse ? std::exp(s - lse[row])
                                             : std::exp(s);
          const float ds = grad_scale * p * (dot(dout_i, &v[key], d) - delta);
          for (int64_t c = 0; c < d; ++c) {
            g.dv[key + c] += p * dout_i[c];
            g.dk[key + c] += ds * q_i[c];
            partial[c] += ds * k[key + c];
          }
        }
        for (int64_t c = 0; c < d; ++c) {
          float& dq = g.dq[row * d + c];
          dq = how.add_dq ? dq + partial[c] : (shape.visible_keys(i) > k0 ? partial[c] : dq);
        }
      }
    }
  }
  return g;
}

}  // namespace fp32
