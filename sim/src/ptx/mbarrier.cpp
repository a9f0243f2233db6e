// mbarrier objects (PTX ISA, "Parallel Synchronization and Communication Instructions: mbarrier"): a
// phase completes once its expected arrivals have come and its transaction count is back to zero; then
// the next phase starts with the same arrival count. try_wait.parity P is true once the phase of parity P
// has completed, that is while the current phase's parity is not P. A thread whose phase has not completed
// waits for it (execution/async_wait.cpp) instead of spinning; a block whose threads all wait for phases
// that cannot complete is reported with each barrier's state.
#include <string>

#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "execution/block_runner.hpp"
#include "memory/access.hpp"
#include "memory/async_proxy.hpp"
#include "ptx/async_block.hpp"
#include "ptx/hopper.hpp"

namespace sim::ptx {
namespace {

constexpr uint32_t kMaxArrivals = (1u << 20) - 1;
constexpr int64_t kMaxTransaction = (int64_t{1} << 20) - 1;

uint64_t event_of(uint32_t address) {
  return uint64_t{1} << 40 | address;
}

std::string barrier_name(const BlockState& block, uint32_t address) {
  return "the mbarrier at " +
         memory::shared_element(*static_cast<const memory::SharedBlock*>(block.shared), address, 8);
}

std::string barrier_name(uint32_t address) {
  return barrier_name(*current_thread()->block, address);
}

// The 8 bytes of the barrier through the memory checker: bounds, alignment and races (an init must be
// ordered before the other threads' use of it). Not a warp's shared-memory instruction for bank counts.
void touch(const Bound& bound, uint32_t address, memory::Access kind) {
  auto& local = memory::host_thread_access;
  if (address % 8 != 0 || address + 8 > local.shared_size)
    bound.fail("mbarrier_invalid",
               "the barrier's shared address " + std::to_string(address) +
                   (address % 8 ? " is not a multiple of 8" : " is outside shared memory"));
  local.counting_banks = false;
  memory::on_access(reinterpret_cast<void*>(local.shared_lo + address), 8, kind, true,
                    where_of(bound.where()));
  local.counting_banks = true;
}

Mbarrier& initialized(const Bound& bound, uint32_t address) {
  touch(bound, address, memory::Access::atomic);
  Mbarrier* barrier = find_mbarrier(async_block(), address);
  if (!barrier)
    bound.fail("mbarrier_invalid",
               barrier_name(address) +
                   " was never initialized by mbarrier.init in this block (or the address "
                   "is not the barrier's)");
  return *barrier;
}

void complete_phase_if_done(Mbarrier& barrier) {
  BlockRunner& runner = BlockRunner::for_this_thread();
  runner.note_event_progress();
  if (barrier.pending != 0 || barrier.transaction != 0) return;
  ++barrier.completed;
  barrier.pending = barrier.expected;
  // What the phase orders, the race checker takes as ordered: a barrier interval ends for every thread.
  ++current_thread()->block->epoch;
  runner.notify_event(event_of(barrier.address));
}

void add_transaction(const Bound& bound, Mbarrier& barrier, int64_t bytes) {
  barrier.transaction += bytes;
  if (barrier.transaction > kMaxTransaction || barrier.transaction < -kMaxTransaction)
    bound.fail("mbarrier_invalid", barrier_name(barrier.address) + " would count " +
                                       std::to_string(barrier.transaction) +
                                       " transaction bytes: the count must stay within +-(2^20 - 1)");
}

std::string state_words(const Mbarrier& b) {
  std::string words = "it has completed " + std::to_string(b.completed) + " phase" +
                      (b.completed == 1 ? "" : "s") + " and is in phase " + std::to_string(b.completed) +
                      " (parity " + std::to_string(b.completed % 2) + "), waiting for " +
                      std::to_string(b.pending) + " of " + std::to_string(b.expected) + " arrivals";
  if (b.transaction > 0) words += " and " + std::to_string(b.transaction) + " transaction bytes";
  if (b.transaction < 0)
    words += ", with " + std::to_string(-b.transaction) + " bytes of bulk copies that no expect_tx announced";
  return words;
}

// A thread's wait for a phase, in words, and what kind of hang it is (execution/stall.cpp).
const char* describe_wait(const SimThread& waiter, std::string& words) {
  const auto address = static_cast<uint32_t>(waiter.event);
  const uint32_t parity = thread_async(waiter).waiting_parity;
  const Mbarrier* barrier = find_mbarrier(async_block(*waiter.block), address);
  words = "wait at mbarrier.try_wait.parity (" + describe_site(waiter.site) + ") for the phase of parity " +
          std::to_string(parity) + " of " + barrier_name(*waiter.block, address);
  if (!barrier) return "mbarrier_deadlock";
  words += ": " + state_words(*barrier);
  if (barrier->transaction < 0) {
    words +=
        ". Its bulk copies brought bytes that no mbarrier.arrive.expect_tx announced: the barrier was never "
        "armed with its bytes, so an earlier phase completed before they came and this one never can (arm it "
        "with mbarrier.arrive.expect_tx(bytes) before or as the copies are issued)";
    return "mbarrier_tx_mismatch";
  }
  if (barrier->transaction > 0 && barrier->pending == 0) {
    words +=
        ". It was armed with more bytes than its copies brought (every copy has landed): the expect_tx count "
        "must be the sum of the boxes' bytes";
    return "mbarrier_tx_mismatch";
  }
  const uint64_t back = barrier->completed % 2 == parity ? 2 : 1;  // to the last phase of that parity
  if (barrier->completed >= back)
    words += ". The phase of parity " + std::to_string(parity) + " that completed last is phase " +
             std::to_string(barrier->completed - back) +
             "; if the wait meant that one, its parity (or its count of the barrier's uses) is wrong";
  return "mbarrier_deadlock";
}

void try_wait(const Bound& bound) {
  const Instruction& ins = bound.instruction();
  const uint32_t address = static_cast<uint32_t>(bound.address(ins.operands[1]));
  const uint32_t parity = static_cast<uint32_t>(bound.value(ins.operands[2], "rn")) & 1;
  Mbarrier& barrier = initialized(bound, address);
  bool done = barrier.completed % 2 != parity;
  if (!done) {
    SimThread& self = calling_thread(ins.name.c_str());
    thread_async(self).waiting_parity = parity;
    done =
        BlockRunner::for_this_thread().wait_for_event(self, event_of(address), &describe_wait, bound.where());
  }
  bound.write(ins.operands[0], 0, done ? 1 : 0);
}

// A barrier whose current phase holds bytes of bulk copies that no expect_tx announced, when its block
// ends: its phases counted arrivals alone, so the phase those copies belonged to completed before they
// landed (on a GPU the waiting threads read the stage too early). Reported even where nothing hung.
void check_barriers_at_end(const BlockState& block) {
  for (const Mbarrier& barrier : async_block(block).barriers) {
    if (barrier.transaction >= 0) continue;
    const Where at = where_of(barrier.init_site);
    if (count_repeat("mbarrier_tx_mismatch", at)) continue;
    report(
        Severity::error, "mbarrier_tx_mismatch", at,
        describe_block(block) + " ended with the mbarrier initialized here in phase " +
            std::to_string(barrier.completed) + ", holding " + std::to_string(-barrier.transaction) +
            " bytes of bulk copies that no mbarrier.arrive.expect_tx announced: the barrier was never armed "
            "with its bytes, so its phases completed on arrivals alone, before the copies landed (use "
            "mbarrier.arrive.expect_tx(bytes), not mbarrier.arrive, for the arrival that starts a stage's "
            "copies)");
  }
}

}  // namespace

void run_mbarrier(const Bound& bound) {
  static const bool checked_at_block_end = (add_block_end_check(&check_barriers_at_end), true);
  (void)checked_at_block_end;
  const Instruction& ins = bound.instruction();
  switch (ins.opcode) {
    case Opcode::mbarrier_init: {
      const uint32_t address = static_cast<uint32_t>(bound.address(ins.operands[0]));
      const uint64_t count = bound.value(ins.operands[1], "rn");
      if (count == 0 || count > kMaxArrivals)
        bound.fail("mbarrier_invalid",
                   "an mbarrier's arrival count is 1 to 2^20 - 1, not " + std::to_string(count));
      touch(bound, address, memory::Access::write);
      Mbarrier* barrier = find_mbarrier(async_block(), address);
      if (!barrier) barrier = &async_block().barriers.emplace_back(Mbarrier{address});
      *barrier =
          Mbarrier{address, static_cast<uint32_t>(count), static_cast<uint32_t>(count), 0, 0, bound.where()};
      return;
    }
    case Opcode::mbarrier_expect_tx: {
      Mbarrier& barrier = initialized(bound, static_cast<uint32_t>(bound.address(ins.operands[0])));
      add_transaction(bound, barrier, static_cast<int64_t>(bound.value(ins.operands[1], "rn")));
      return complete_phase_if_done(barrier);
    }
    case Opcode::mbarrier_arrive: {
      Mbarrier& barrier = initialized(bound, static_cast<uint32_t>(bound.address(ins.operands[1])));
      uint64_t count = 1;
      if (ins.expect_tx)
        add_transaction(bound, barrier, static_cast<int64_t>(bound.value(ins.operands[2], "rn")));
      else if (ins.operands.size() > 2)
        count = bound.value(ins.operands[2], "rn");
      if (count == 0 || count > barrier.pending)
        bound.fail("mbarrier_invalid", "an arrival of count " + std::to_string(count) + " on " +
                                           barrier_name(barrier.address) + ", which waits for " +
                                           std::to_string(barrier.pending) + " more in its current phase");
      bound.write(ins.operands[0], 0, barrier.completed);  // the state: the phase arrived at
      barrier.pending -= static_cast<uint32_t>(count);
      return complete_phase_if_done(barrier);
    }
    default:
      return try_wait(bound);
  }
}

bool complete_transaction(const Bound& bound, uint64_t shared_address, uint32_t bytes) {
  Mbarrier* barrier = find_mbarrier(async_block(), static_cast<uint32_t>(shared_address));
  if (!barrier) {
    report(Severity::error, "bulk_copy_invalid", where_of(bound.where()),
           bound.instruction().name + ": its mbarrier operand, " +
               barrier_name(static_cast<uint32_t>(shared_address)) +
               ", was never initialized by mbarrier.init in this block");
    return false;
  }
  add_transaction(bound, *barrier, -static_cast<int64_t>(bytes));
  complete_phase_if_done(*barrier);
  return true;
}

}  // namespace sim::ptx
