// Hopper's instructions by opcode (ptx/hopper.hpp), and the small ones: fences, setmaxnreg, a cluster of
// one block (the simulator runs no clusters of several blocks: every block is CTA 0 of its own), and the
// scalar setp, selp, mov and mapa that the wrappers around them are written with, and ex2.
#include "ptx/hopper.hpp"

#include <bit>
#include <cmath>
#include <string>

#include "core/work_counters.hpp"
#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "execution/block_runner.hpp"
#include "memory/async_proxy.hpp"

namespace sim::ptx {
namespace {

struct RegisterCount {
  uint64_t count;
  bool increase;
};

// setmaxnreg changes no result here; what it asks of the warp group is checked.
void complete_setmaxnreg(SimThread* threads, uint32_t, const BlockState&) {
  const auto& first = *reinterpret_cast<const RegisterCount*>(threads[0].call.value);
  for (int t = 0; t < 128; ++t) {
    const auto& mine = *reinterpret_cast<const RegisterCount*>(threads[t].call.value);
    std::string problem;
    if (mine.count != first.count || mine.increase != first.increase)
      problem = "thread " + std::to_string(threads[t].linear) + " asks for " + std::to_string(mine.count) +
                " registers, thread " + std::to_string(threads[0].linear) + " for " +
                std::to_string(first.count) + ": the count must be the same in the whole warp group";
    else if (mine.count < 24 || mine.count > 256 || mine.count % 8 != 0)
      problem = "the register count " + std::to_string(mine.count) + " is not a multiple of 8 from 24 to 256";
    if (problem.empty()) continue;
    report_as(threads[t], Severity::error, "setmaxnreg_invalid", threads[t].site, "setmaxnreg: " + problem);
    return;
  }
}

void run_setmaxnreg(const Bound& bound) {
  SimThread& self = calling_thread("setmaxnreg");
  RegisterCount count{bound.value(bound.instruction().operands[0], "n"), bound.instruction().increase};
  const CollectiveCall call{CollectiveOp::warpgroup, ~0u, reinterpret_cast<uint64_t>(&count), 0, 0,
                            &complete_setmaxnreg};
  BlockRunner::for_this_thread().warpgroup_collective(self, call, bound.where());
}

bool compare(Comparison c, uint32_t a, uint32_t b, bool is_signed) {
  const auto sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
  switch (c) {
    case Comparison::eq:
      return a == b;
    case Comparison::ne:
      return a != b;
    case Comparison::lt:
      return is_signed ? sa < sb : a < b;
    case Comparison::le:
      return is_signed ? sa <= sb : a <= b;
    case Comparison::gt:
      return is_signed ? sa > sb : a > b;
    case Comparison::ge:
      return is_signed ? sa >= sb : a >= b;
  }
  return false;
}

// 2^a on the special-function unit; .ftz reads and writes subnormals as zeros of their sign.
void run_ex2(const Bound& bound) {
  const Instruction& ins = bound.instruction();
  const auto flush = [&](float x) {
    return ins.flush_subnormals && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.f, x) : x;
  };
  const float a = flush(std::bit_cast<float>(static_cast<uint32_t>(bound.value(ins.operands[1], "f"))));
  work::count(work::Kind::special);
  bound.write(ins.operands[0], 0, std::bit_cast<uint32_t>(flush(std::exp2(a))));
}

void run_scalar(const Bound& bound) {
  const Instruction& ins = bound.instruction();
  const auto& ops = ins.operands;
  const auto u32 = [&](size_t i) { return static_cast<uint32_t>(bound.value(ops[i], "rnhl")); };
  switch (ins.opcode) {
    case Opcode::setp:
      return bound.write(ops[0], 0, compare(ins.comparison, u32(1), u32(2), ins.is_signed) ? 1 : 0);
    case Opcode::selp:
      return bound.write(ops[0], 0, u32(3) != 0 ? u32(1) : u32(2));
    case Opcode::mov:
      return bound.write(ops[0], 0, u32(1));
    case Opcode::ex2:
      return run_ex2(bound);
    default:  // mapa: the same place in another CTA of the cluster
      if (u32(2) != 0)
        bound.fail("asm_not_modelled",
                   "mapa to CTA " + std::to_string(u32(2)) +
                       " of the cluster: clusters of more than one block are not modelled");
      return bound.write(ops[0], 0, u32(1));
  }
}

}  // namespace

void run_hopper(const Bound& bound) {
  switch (bound.instruction().opcode) {
    case Opcode::wgmma:
      return run_wgmma(bound);
    case Opcode::wgmma_fence:  // orders register accesses before the wgmma: the simulator's are in order
      return;
    case Opcode::wgmma_commit:
      return run_wgmma_commit();
    case Opcode::wgmma_wait:
      return run_wgmma_wait(bound);
    case Opcode::mbarrier_init:
    case Opcode::mbarrier_arrive:
    case Opcode::mbarrier_expect_tx:
    case Opcode::mbarrier_try_wait:
      return run_mbarrier(bound);
    case Opcode::fence_mbarrier_init:  // initialized barriers are visible to every later access here
      return;
    case Opcode::fence_proxy_async:
      return memory::fence_async_proxy();
    case Opcode::bulk_tensor_load:
      return run_bulk_tensor_load(bound);
    case Opcode::bulk_tensor_store:
      return run_bulk_tensor_store(bound);
    case Opcode::bulk_commit:
      return run_bulk_commit();
    case Opcode::bulk_wait:
      return run_bulk_wait(bound);
    case Opcode::setmaxnreg:
      return run_setmaxnreg(bound);
    case Opcode::cluster_arrive:  // a cluster of one block: its wait is the block's barrier
      return;
    case Opcode::cluster_wait:
      BlockRunner::for_this_thread().barrier(calling_thread("barrier.cluster.wait"), 0, bound.where());
      return;
    default:
      return run_scalar(bound);
  }
}

}  // namespace sim::ptx
