#include "families/attention_judges.hpp"

#include <stdexcept>

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

Judge backward_judge(const std::vector<std::string>& extra_diagnoses) {
  no_extras("attention_backward", extra_diagnoses);
  enum Input { kQ, kK, kV, kO, kLse, kDout };  // as call_backward_launcher passes them
  return {.reference =
              [](const Params& p, const Buffers& in, RefBuffers& out) {
                backward(shape_of(p), in[kQ].data(), in[kK].data(), in[kV].data(), in[kDout].data(),
                         out[0].data(), out[1].data(), out[2].data());
              },
          .diagnose = flash_backward_diagnoses};
}

}  // namespace puzzle::puzzles::attention
