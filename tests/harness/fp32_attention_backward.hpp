// The attention backward pass in float32 on the CPU, computed the way puzzle 6's kernels compute it (P
// from lse, D from dout and o, a partial dq per tile of keys added into dq), right and wrong: the judge
// must pass the right one on every case and diagnose the wrong ones. With `sixteen_bit`, it rounds as
// puzzle 10's tensor-core kernels do: P and dS to bf16 before their products, the gradients at the end.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dtype.hpp"
#include "families/attention_family.hpp"
#include "registry.hpp"

namespace fp32 {

struct Backward {
  bool subtract_lse = true;    // false: P = exp(scale * s), not normalized
  bool lse_base_2 = false;     // P = exp2(scale * s * log2(e) - lse): lse read as a base-2 logsumexp
  bool subtract_delta = true;  // false: dS = P * dP, D omitted
  bool scale_dq = true;        // false: dq misses its factor scale
  bool scale_dk = true;        // false: dk misses its factor scale
  bool dv_from_p = false;      // dv = P dout (P's rows where P^T's belong), where indices allow
  bool add_dq = true;          // false: each tile of keys overwrites dq instead of adding (lost updates)
  int64_t diagonal_shift = 0;  // the causal diagonal moved by this many keys (an off-by-one mask)
  int64_t tile_keys = 64;
  bool sixteen_bit = false;
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
  const float scale = static_cast<float>(shape.scale);
  const float dq_scale = how.scale_dq ? scale : 1.0f, dk_scale = how.scale_dk ? scale : 1.0f;
  const auto operand = [&](float x) {
    return how.sixteen_bit ? puzzle::round_to(puzzle::Dtype::bf16, x) : x;
  };
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
          const float ds = operand(p * (dot(dout_i, &v[key], d) - delta));
          float* dv_row = &g.dv[key];
          const float* dout_row = dout_i;
          if (how.dv_from_p) {  // P dout: p_ij goes to dv row i against dout row j, where both exist
            const bool fits = i < shape.n_k && j < shape.n_q;
            dv_row = fits ? &g.dv[(h * shape.n_k + i) * d] : nullptr;
            dout_row = fits ? &dout[(h * shape.n_q + j) * d] : nullptr;
          }
          for (int64_t c = 0; c < d; ++c) {
            if (dv_row) dv_row[c] += operand(p) * dout_row[c];
            g.dk[key + c] += dk_scale * ds * q_i[c];
            partial[c] += dq_scale * ds * k[key + c];
          }
        }
        for (int64_t c = 0; c < d; ++c) {
          float& dq = g.dq[row * d + c];
          dq = how.add_dq ? dq + partial[c] : (shape.visible_keys(i) > k0 ? partial[c] : dq);
        }
      }
    }
  }
  if (how.sixteen_bit) {
    for (std::vector<float>* grad : {&g.dq, &g.dk, &g.dv}) {
      for (float& x : *grad) x = puzzle::round_to(puzzle::Dtype::bf16, x);
    }
  }
  return g;
}

}  // namespace fp32
