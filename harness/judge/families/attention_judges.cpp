#include "families/attention_judges.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "families/attention_backward_allowance.hpp"
#include "families/attention_backward_reference.hpp"
#include "families/attention_family.hpp"
#include "families/flash_backward_diagnoses.hpp"
#include "families/flash_forward_diagnoses.hpp"

namespace puzzle::puzzles::attention {
namespace {

void no_extras(const char* judge, const std::vector<std::string>& extra_diagnoses) {
  if (!extra_diagnoses.empty()) {
    throw std::logic_error(std::string("the ") + judge + " judge has no diagnosis \"" + extra_diagnoses[0] +
                           "\"");
  }
}

}  // namespace

Judge forward_judge(const std::vector<std::string>& extra_diagnoses) {
  no_extras("attention_forward", extra_diagnoses);
  return {.reference =
              [](const Params& p, const Buffers& in, RefBuffers& out) {
                forward(shape_of(p), in[0].data(), in[1].data(), in[2].data(), out[0].data(), out[1].data());
              },
          .diagnose = flash_forward_diagnoses};
}

// A right 16-bit kernel rounds P to 16 bits before O += P V (relative 2^-8 at most per term, bf16) and o once
// at the end (2^-8 |o| <= 2^-8 sum_j p_j |v_j|); exp2 approximations and fp32 sums add far less. o's element
// (i, c) may be off by 2^-6 sum_j p_ij |v_jc|, twice that (the forward pass with |v| for v gives the
// sum). lse stays fp32 and keeps the spec's tolerance. Wrong kernels miss by more: a key too many or too
// few moves lse by ~1 / n_k, far above its tolerance, and the other bugs move o by whole factors.
Judge forward_16bit_judge(const std::vector<std::string>& extra_diagnoses) {
  Judge judge = forward_judge({});
  no_extras("attention_forward_16bit", extra_diagnoses);
  judge.allowance = [](const Params& p, const Buffers& in, RefBuffers& out) {
    std::vector<float> v_magnitude(in[2].size());
    std::transform(in[2].begin(), in[2].end(), v_magnitude.begin(), [](float v) { return std::abs(v); });
    forward(shape_of(p), in[0].data(), in[1].data(), v_magnitude.data(), out[0].data(), out[1].data());
    for (double& bound : out[0]) bound *= 0x1p-6;
    std::fill(out[1].begin(), out[1].end(), 0.0);
  };
  return judge;
}

enum BackwardInput { kQ, kK, kV, kO, kLse, kDout };  // as call_backward_launcher passes them

Judge backward_judge(const std::vector<std::string>& extra_diagnoses) {
  no_extras("attention_backward", extra_diagnoses);
  return {.reference =
              [](const Params& p, const Buffers& in, RefBuffers& out) {
                backward(shape_of(p), in[kQ].data(), in[kK].data(), in[kV].data(), in[kDout].data(),
                         out[0].data(), out[1].data(), out[2].data());
              },
          .diagnose = flash_backward_diagnoses};
}

// bf16 gradients: harness/judge/families/attention_backward_allowance.cpp says what a right kernel may err.
Judge backward_16bit_judge(const std::vector<std::string>& extra_diagnoses) {
  Judge judge = backward_judge({});
  no_extras("attention_backward_16bit", extra_diagnoses);
  judge.allowance = [](const Params& p, const Buffers& in, RefBuffers& out) {
    backward_16bit_allowance(shape_of(p), in[kQ].data(), in[kK].data(), in[kV].data(), in[kO].data(),
                             in[kDout].data(), 0x1p-8, out[0].data(), out[1].data(), out[2].data());
  };
  return judge;
}

}  // namespace puzzle::puzzles::attention
