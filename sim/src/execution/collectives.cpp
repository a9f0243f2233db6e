// Warp collectives: a lane waits until every lane its mask names has arrived at a collective or
// exited; then the lanes that arrived with that same mask and operation complete together. A warp
// settles only once none of its lanes can run, so the outcome does not depend on the run order.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/work_counters.hpp"
#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"

namespace sim {
namespace {

uint32_t bit(unsigned lane) {
  return 1u << lane;
}

// PTX shfl.sync: the lane that `lane` reads, from b (lane, offset or xor mask) and c (the clamp in
// bits 0-4, the segment mask in bits 8-12). A lane whose source falls outside its segment reads itself.
int shuffle_source(CollectiveOp op, int lane, int b, int c) {
  const int offset = b & 31, clamp = c & 31, segment = c >> 8 & 31;
  const int max_lane = (lane & segment) | (clamp & ~segment);
  const int min_lane = lane & segment;
  int source = lane;
  bool inside = true;
  switch (op) {
    case CollectiveOp::shfl_up:
      source = lane - offset;
      inside = source >= max_lane;
      break;
    case CollectiveOp::shfl_down:
      source = lane + offset;
      inside = source <= max_lane;
      break;
    case CollectiveOp::shfl_xor:
      source = lane ^ offset;
      inside = source <= max_lane;
      break;
    default:  // shfl_idx
      source = min_lane | (offset & ~segment);
      inside = source <= max_lane;
      break;
  }
  return inside ? source : lane;
}

bool is_shuffle(CollectiveOp op) {
  return op <= CollectiveOp::shfl_xor;
}

// What every lane of `group` gets from a collective that is not a shuffle.
struct GroupValues {
  uint32_t ballot = 0;  // lanes whose operand is nonzero
  uint32_t sum = 0, min_u = ~0u, max_u = 0, and_bits = ~0u, or_bits = 0, xor_bits = 0;
  int32_t min_s = INT32_MAX, max_s = INT32_MIN;
  bool all_equal = true;
};

GroupValues combine(const SimThread* lanes, uint32_t group) {
  GroupValues v;
  const uint64_t first = lanes[std::countr_zero(group)].call.value;
  for (uint32_t g = group; g != 0; g &= g - 1) {
    const uint64_t value = lanes[std::countr_zero(g)].call.value;
    const auto u = static_cast<uint32_t>(value);
    const auto s = static_cast<int32_t>(u);
    if (value != 0) v.ballot |= g & -g;
    v.sum += u;
    v.min_u = std::min(v.min_u, u);
    v.max_u = std::max(v.max_u, u);
    v.min_s = std::min(v.min_s, s);
    v.max_s = std::max(v.max_s, s);
    v.and_bits &= u;
    v.or_bits |= u;
    v.xor_bits ^= u;
    v.all_equal = v.all_equal && value == first;
  }
  return v;
}

uint64_t group_result(CollectiveOp op, const GroupValues& v, const SimThread* lanes, uint32_t group,
                      uint64_t own_value) {
  switch (op) {
    case CollectiveOp::ballot:
      return v.ballot;
    case CollectiveOp::any:
      return v.ballot != 0;
    case CollectiveOp::all:
      return v.ballot == group;
    case CollectiveOp::match_all:
      return v.all_equal ? group : 0;
    case CollectiveOp::match_any: {
      uint32_t same = 0;
      for (uint32_t g = group; g != 0; g &= g - 1) {
        if (lanes[std::countr_zero(g)].call.value == own_value) same |= g & -g;
      }
      return same;
    }
    case CollectiveOp::reduce_add:
      return v.sum;
    case CollectiveOp::reduce_min:
      return v.min_u;
    case CollectiveOp::reduce_max:
      return v.max_u;
    case CollectiveOp::reduce_min_signed:
      return static_cast<uint32_t>(v.min_s);
    case CollectiveOp::reduce_max_signed:
      return static_cast<uint32_t>(v.max_s);
    case CollectiveOp::reduce_and:
      return v.and_bits;
    case CollectiveOp::reduce_or:
      return v.or_bits;
    case CollectiveOp::reduce_xor:
      return v.xor_bits;
    default:
      return 0;  // syncwarp
  }
}

}  // namespace

const char* collective_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::shfl_idx:
      return "__shfl_sync";
    case CollectiveOp::shfl_up:
      return "__shfl_up_sync";
    case CollectiveOp::shfl_down:
      return "__shfl_down_sync";
    case CollectiveOp::shfl_xor:
      return "__shfl_xor_sync";
    case CollectiveOp::ballot:
      return "__ballot_sync";
    case CollectiveOp::any:
      return "__any_sync";
    case CollectiveOp::all:
      return "__all_sync";
    case CollectiveOp::syncwarp:
      return "__syncwarp";
    case CollectiveOp::match_any:
      return "__match_any_sync";
    case CollectiveOp::match_all:
      return "__match_all_sync";
    case CollectiveOp::reduce_add:
      return "__reduce_add_sync";
    case CollectiveOp::reduce_min:
    case CollectiveOp::reduce_min_signed:
      return "__reduce_min_sync";
    case CollectiveOp::reduce_max:
    case CollectiveOp::reduce_max_signed:
      return "__reduce_max_sync";
    case CollectiveOp::reduce_and:
      return "__reduce_and_sync";
    case CollectiveOp::reduce_or:
      return "__reduce_or_sync";
    case CollectiveOp::reduce_xor:
      return "__reduce_xor_sync";
    case CollectiveOp::warp_matrix:
      return "mma.sync/ldmatrix";
  }
  return "a warp collective";
}

CollectiveResult BlockRunner::collective(SimThread& self, const CollectiveCall& call,
                                         std::source_location where) {
  if ((call.mask & bit(self.lane)) == 0) {
    report(Severity::error, "warp_mask_excludes_self", where_of(where),
           describe_block(block_) + ", thread " + std::to_string(self.linear) + " (lane " +
               std::to_string(self.lane) + ") calls " + collective_name(call.op) + " with mask " +
               hex_mask(call.mask) +
               ", which does not name its own lane: undefined behaviour. The mask must "
               "include every calling lane (e.g. 0xffffffff, or the result of __ballot_sync over the lanes "
               "that take this branch).");
    abandon_block(self);
  }
  if (call.op != CollectiveOp::warp_matrix) work::count(work::Kind::collective);
  self.call = call;
  self.site = where;
  block_lane(self, Wait::collective);
  WarpState& warp = warps_[self.warp];
  if (warp.collective == 0) {
    warp.uniform = true;
    warp.first_op = call.op;
    warp.first_mask = call.mask;
  } else if (call.op != warp.first_op || call.mask != warp.first_mask) {
    warp.uniform = false;
  }
  warp.collective |= bit(self.lane);
  settle_warp(self.warp);
  if (abandoned_) leave_for_good(self);
  if (self.wait == Wait::collective) suspend(self);
  return self.result;
}

uint32_t BlockRunner::activemask(SimThread& self, std::source_location where) {
  self.site = where;
  block_lane(self, Wait::activemask);
  warps_[self.warp].activemask |= bit(self.lane);
  settle_warp(self.warp);
  if (abandoned_) leave_for_good(self);
  if (self.wait == Wait::activemask) suspend(self);
  return static_cast<uint32_t>(self.result.value);
}

void BlockRunner::settle_warp(unsigned warp) {
  WarpState& w = warps_[warp];
  if (w.running != 0) return;
  if (w.collective != 0) {
    if (w.uniform) {
      if (group_is_complete(warp, w.first_mask)) {
        release_group(warp, w.first_mask);
        return;
      }
    } else {
      // The same call with different masks is a mistake even if one mask could complete alone.
      if (report_collective_conflict(warp, true)) {
        abandoned_ = true;
        return;
      }
      if (release_consistent_groups(warp)) return;
    }
  }
  if (w.activemask != 0) release_activemask(warp);
}

bool BlockRunner::release_consistent_groups(unsigned warp) {
  bool released = false;
  const WarpState& w = warps_[warp];
  for (uint32_t pending = w.collective; pending != 0;) {
    const CollectiveCall& call = lanes(warp)[std::countr_zero(pending)].call;
    pending &= pending - 1;
    if (!group_is_complete(warp, call.mask) || !group_is_consistent(warp, call.mask, call.op)) continue;
    release_group(warp, call.mask);
    pending &= w.collective;
    released = true;
  }
  return released;
}

bool BlockRunner::group_is_complete(unsigned warp, uint32_t mask) const {
  const WarpState& w = warps_[warp];
  return (mask & ~(w.collective | w.exited)) == 0;
}

bool BlockRunner::group_is_consistent(unsigned warp, uint32_t mask, CollectiveOp op) const {
  for (uint32_t g = mask & warps_[warp].collective; g != 0; g &= g - 1) {
    const CollectiveCall& call = lanes(warp)[std::countr_zero(g)].call;
    if (call.mask != mask || call.op != op) return false;
  }
  return true;
}

void BlockRunner::release_group(unsigned warp, uint32_t mask) {
  WarpState& w = warps_[warp];
  SimThread* lane = lanes(warp);
  const uint32_t group = mask & w.collective;
  const CollectiveOp op = lane[std::countr_zero(group)].call.op;
  if (op == CollectiveOp::warp_matrix) {
    lane[std::countr_zero(group)].call.complete(lane, group, block_);
    for (uint32_t g = group; g != 0; g &= g - 1)
      lane[std::countr_zero(g)].result = CollectiveResult{0, true, 0};
  } else if (is_shuffle(op)) {
    for (uint32_t g = group; g != 0; g &= g - 1) {
      SimThread& t = lane[std::countr_zero(g)];
      const int source = shuffle_source(op, static_cast<int>(t.lane), t.call.b, t.call.c);
      const bool defined = (group & bit(source)) != 0;
      t.result = CollectiveResult{defined ? lane[source].call.value : 0, defined, source};
    }
  } else {
    const GroupValues values = combine(lane, group);
    for (uint32_t g = group; g != 0; g &= g - 1) {
      SimThread& t = lane[std::countr_zero(g)];
      t.result = CollectiveResult{group_result(op, values, lane, group, t.call.value), true, 0};
    }
  }
  for (uint32_t g = group; g != 0; g &= g - 1) unblock_lane(lane[std::countr_zero(g)]);
  w.collective &= ~group;
  if (w.collective == 0) w.uniform = true;
  ++block_.warp_epoch[warp];
}

// No lane of the warp can run: the lanes in __activemask are the ones that reached it together,
// and each gets the lanes waiting at the same call.
void BlockRunner::release_activemask(unsigned warp) {
  WarpState& w = warps_[warp];
  SimThread* lane = lanes(warp);
  for (uint32_t pending = w.activemask; pending != 0;) {
    const std::source_location site = lane[std::countr_zero(pending)].site;
    uint32_t together = 0;
    for (uint32_t g = pending; g != 0; g &= g - 1) {
      if (same_site(lane[std::countr_zero(g)].site, site)) together |= g & -g;
    }
    for (uint32_t g = together; g != 0; g &= g - 1) {
      SimThread& t = lane[std::countr_zero(g)];
      t.result = CollectiveResult{together, true, 0};
      unblock_lane(t);
    }
    pending &= ~together;
  }
  w.activemask = 0;
}

}  // namespace sim
