// The warp intrinsics of sim/warp.h: typed front ends of BlockRunner::collective.
#include <bit>
#include <cstdint>
#include <type_traits>

#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "execution/block_runner.hpp"
#include "sim/warp.h"

namespace sim {
namespace {

template <class T>
uint64_t to_bits(T value) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<uint32_t>(value);
  } else {
    return std::bit_cast<uint64_t>(value);
  }
}

template <class T>
T from_bits(uint64_t bits) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<T>(static_cast<uint32_t>(bits));
  } else {
    return std::bit_cast<T>(bits);
  }
}

// What a shuffle returns for an undefined source: NaN for floating point, 0xDEADBEEF... otherwise.
template <class T>
T poison() {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(0x7FC0BEEFu);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(0x7FF80000DEADBEEFull);
  } else {
    return static_cast<T>(0xDEADBEEFDEADBEEFull);
  }
}

CollectiveResult run_collective(const CollectiveCall& call, std::source_location where) {
  SimThread& self = calling_thread(collective_name(call.op));
  return BlockRunner::for_this_thread().collective(self, call, where);
}

void warn_undefined_source(const CollectiveCall& call, int source, std::source_location where) {
  const Where at = where_of(where);
  if (count_repeat("shuffle_inactive_source", at)) return;
  const SimThread& self = calling_thread(collective_name(call.op));
  report(Severity::warning, "shuffle_inactive_source", at,
         std::string(collective_name(call.op)) + " with mask " + hex_mask(call.mask) + ": lane " +
             std::to_string(self.lane) + " of warp " + std::to_string(self.warp) + " reads lane " +
             std::to_string(source) +
             ", which has exited, does not exist (past the end of the block) or is not in the mask. The "
             "value is undefined (the simulator returns NaN or 0xDEADBEEF): harmless if this lane "
             "discards it, a bug if it is used.");
}

// The c operand CUDA's __shfl*_sync pass to shfl.sync: the segment mask from `width`, and a clamp
// at the segment's end (the start, for shfl.up).
int segment_clamp(int width) {
  return (warpSize - width) << 8 | 0x1f;
}
int segment_clamp_up(int width) {
  return (warpSize - width) << 8;
}

template <class T>
T shuffle(CollectiveOp op, unsigned mask, T var, int b, int c, std::source_location where) {
  const CollectiveCall call{op, mask, to_bits(var), b, c};
  const CollectiveResult r = run_collective(call, where);
  if (r.defined) return from_bits<T>(r.value);
  warn_undefined_source(call, r.source_lane, where);
  return poison<T>();
}

template <class T>
uint32_t vote(CollectiveOp op, unsigned mask, T value, std::source_location where) {
  return static_cast<uint32_t>(run_collective(CollectiveCall{op, mask, to_bits(value)}, where).value);
}

}  // namespace
}  // namespace sim

using sim::CollectiveOp;

#define SIM_DEFINE_SHUFFLES(T)                                                                          \
  T __shfl_sync(unsigned mask, T var, int srcLane, int width, std::source_location where) {             \
    return sim::shuffle(CollectiveOp::shfl_idx, mask, var, srcLane, sim::segment_clamp(width), where);  \
  }                                                                                                     \
  T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width, std::source_location where) {   \
    return sim::shuffle(CollectiveOp::shfl_up, mask, var, static_cast<int>(delta),                      \
                        sim::segment_clamp_up(width), where);                                           \
  }                                                                                                     \
  T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width, std::source_location where) { \
    return sim::shuffle(CollectiveOp::shfl_down, mask, var, static_cast<int>(delta),                    \
                        sim::segment_clamp(width), where);                                              \
  }                                                                                                     \
  T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width, std::source_location where) {        \
    return sim::shuffle(CollectiveOp::shfl_xor, mask, var, laneMask, sim::segment_clamp(width), where); \
  }                                                                                                     \
  unsigned int __match_any_sync(unsigned mask, T value, std::source_location where) {                   \
    return sim::vote(CollectiveOp::match_any, mask, value, where);                                      \
  }                                                                                                     \
  unsigned int __match_all_sync(unsigned mask, T value, int* pred, std::source_location where) {        \
    const unsigned int lanes = sim::vote(CollectiveOp::match_all, mask, value, where);                  \
    *pred = lanes != 0;                                                                                 \
    return lanes;                                                                                       \
  }
SIM_DEFINE_SHUFFLES(int)
SIM_DEFINE_SHUFFLES(unsigned int)
SIM_DEFINE_SHUFFLES(long)
SIM_DEFINE_SHUFFLES(unsigned long)
SIM_DEFINE_SHUFFLES(long long)
SIM_DEFINE_SHUFFLES(unsigned long long)
SIM_DEFINE_SHUFFLES(float)
SIM_DEFINE_SHUFFLES(double)
#undef SIM_DEFINE_SHUFFLES

unsigned int __ballot_sync(unsigned mask, int predicate, std::source_location where) {
  return sim::vote(CollectiveOp::ballot, mask, unsigned{predicate != 0}, where);
}
int __any_sync(unsigned mask, int predicate, std::source_location where) {
  return static_cast<int>(sim::vote(CollectiveOp::any, mask, unsigned{predicate != 0}, where));
}
int __all_sync(unsigned mask, int predicate, std::source_location where) {
  return static_cast<int>(sim::vote(CollectiveOp::all, mask, unsigned{predicate != 0}, where));
}
void __syncwarp(unsigned mask, std::source_location where) {
  sim::vote(CollectiveOp::syncwarp, mask, 0u, where);
}

unsigned int __activemask(std::source_location where) {
  sim::SimThread& self = sim::calling_thread("__activemask");
  return sim::BlockRunner::for_this_thread().activemask(self, where);
}

#define SIM_DEFINE_REDUCE(name, T, op)                                      \
  T name(unsigned mask, T value, std::source_location where) {              \
    return static_cast<T>(sim::vote(CollectiveOp::op, mask, value, where)); \
  }
SIM_DEFINE_REDUCE(__reduce_add_sync, unsigned int, reduce_add)
SIM_DEFINE_REDUCE(__reduce_min_sync, unsigned int, reduce_min)
SIM_DEFINE_REDUCE(__reduce_max_sync, unsigned int, reduce_max)
SIM_DEFINE_REDUCE(__reduce_add_sync, int, reduce_add)
SIM_DEFINE_REDUCE(__reduce_min_sync, int, reduce_min_signed)
SIM_DEFINE_REDUCE(__reduce_max_sync, int, reduce_max_signed)
SIM_DEFINE_REDUCE(__reduce_and_sync, unsigned int, reduce_and)
SIM_DEFINE_REDUCE(__reduce_or_sync, unsigned int, reduce_or)
SIM_DEFINE_REDUCE(__reduce_xor_sync, unsigned int, reduce_xor)
#undef SIM_DEFINE_REDUCE
