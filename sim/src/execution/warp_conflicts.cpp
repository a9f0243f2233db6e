// Lanes that a complete mask puts together but that are not at the same collective with the same
// mask: undefined behaviour on the GPU (a hang or garbage), a finding here.
#include <bit>
#include <string>
#include <vector>

#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"

namespace sim {
namespace {

bool same_call(const SimThread& a, const SimThread& b) {
  return a.call.op == b.call.op && a.call.mask == b.call.mask;
}

std::string describe_call(const std::vector<unsigned>& threads, const SimThread& t, const dim3& block_dim) {
  return describe_threads(threads, block_dim) + " call " + collective_name(t.call.op) + " with mask " +
         hex_mask(t.call.mask) + " (" + describe_site(t.site) + ")";
}

}  // namespace

bool BlockRunner::report_collective_conflict(unsigned warp, bool same_site_only) {
  const WarpState& w = warps_[warp];
  const SimThread* lane = lanes(warp);
  for (uint32_t pending = w.collective; pending != 0; pending &= pending - 1) {
    const SimThread& a = lane[std::countr_zero(pending)];
    if (!group_is_complete(warp, a.call.mask)) continue;
    for (uint32_t g = a.call.mask & w.collective; g != 0; g &= g - 1) {
      const SimThread& b = lane[std::countr_zero(g)];
      if (same_call(a, b) || (same_site_only && !same_site(a.site, b.site))) continue;
      std::vector<unsigned> with_a, with_b;
      for (uint32_t h = w.collective; h != 0; h &= h - 1) {
        const SimThread& t = lane[std::countr_zero(h)];
        if (same_call(t, a)) with_a.push_back(t.linear);
        if (same_call(t, b)) with_b.push_back(t.linear);
      }
      const std::string what = "warp " + std::to_string(warp) + " of " + describe_block(block_) + ": " +
                               describe_call(with_a, a, block_.block_dim) + ", but " +
                               describe_call(with_b, b, block_.block_dim);
      if (a.call.op == b.call.op) {
        report_as(b, Severity::error, "warp_mask_mismatch", b.site,
                  what + ". Every lane a mask names must call the collective with that same mask.");
      } else {
        report_as(b, Severity::error, "warp_divergent_collective", b.site,
                  what + ", at the same time. Every lane a mask names must reach the same warp collective.");
      }
      return true;
    }
  }
  return false;
}

}  // namespace sim
