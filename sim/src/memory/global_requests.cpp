#include "memory/global_requests.hpp"

#include <algorithm>
#include <bit>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/work_counters.hpp"
#include "memory/access.hpp"
#include "memory/global_footprint.hpp"
#include "memory/heap.hpp"

namespace sim::memory {
namespace {

constexpr uintptr_t kRequestSectorBytes = 32;
constexpr unsigned kWarpsPerBlock = 32;
constexpr unsigned kInstancesApart = 4;  // executions of one instruction a warp's lanes may be apart
constexpr unsigned kKeptSectors = 32;    // distinct sectors kept per request; more are counted, not kept
// A block's first accesses are followed exactly; past this many, a block (one thread looping over a whole
// matrix) goes on without grouping, reuse distances or yields, at a fraction of the cost, and its counts
// are those of its tracked part scaled by the accesses it made in all: a loop repeats itself.
constexpr uint64_t kTrackedAccesses = uint64_t{1} << 20;
// A lane that loads a global address this many times with volatile loads polls a flag another block sets.
constexpr unsigned kPolls = 4;

// One execution of an instruction by a warp: the lanes that have joined it and the sectors they touch_sector.
struct Request {
  uint32_t instance = 0;
  uint32_t lanes = 0;  // 0: free
  bool store = false;
  unsigned bytes = 0;    // asked for by the lanes
  unsigned sectors = 0;  // distinct sectors touched (those past kKeptSectors counted without a check)
  uint64_t sector[kKeptSectors];
};

struct WarpInstruction {
  uint32_t next[32] = {};  // the instance each lane executes next
  std::array<Request, kInstancesApart> ring{};
};

// A lane's latest access, held back in case the next one continues it: g++ splits a float4 access
// into scalar ones where nvcc emits one 16-byte instruction (as in banks.cpp).
struct HeldAccess {
  bool valid = false;
  bool tracked = false;  // false: kept only to join the next access to it, not counted
  Access kind = Access::read;
  unsigned bytes = 0;
  uintptr_t address = 0, pc = 0;
};

// Sector -> (the block's touch_sector clock when last touched) << 1 | written: open addressing, linear
// probing. A block that touches more than kMostSectors (32 MiB, most of an L2) starts it again: what it
// touched that long ago is as good as new to the caches.
class SectorTable {
 public:
  static constexpr size_t kMostSectors = size_t{1} << 20;
  // The entry of `sector`, inserted (value 0) if new; `fresh` says which.
  uint64_t& find(uint64_t sector, bool& fresh) {
    if (size_ == kMostSectors) clear();
    if ((size_ + 1) * 2 > keys_.size()) grow();
    const uint64_t key = sector + 1;
    for (size_t i = hash(key);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == key) {
        fresh = false;
        return values_[i];
      }
      if (keys_[i] == 0) {
        keys_[i] = key;
        values_[i] = 0;
        ++size_;
        fresh = true;
        return values_[i];
      }
    }
  }
  void clear() {
    if (size_ == 0) return;
    std::fill(keys_.begin(), keys_.end(), 0);
    size_ = 0;
  }

 private:
  size_t hash(uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull >> 20) & (keys_.size() - 1); }
  void grow() {
    std::vector<uint64_t> keys = std::move(keys_), values = std::move(values_);
    keys_.assign(std::max<size_t>(1024, keys.size() * 2), 0);
    values_.assign(keys_.size(), 0);
    size_ = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == 0) continue;
      bool fresh;
      find(keys[i] - 1, fresh) = values[i];
    }
  }
  std::vector<uint64_t> keys_, values_;
  size_t size_ = 0;
};

struct BlockGlobal {
  std::vector<HeldAccess> held = std::vector<HeldAccess>(1024);  // per thread of the block
  std::unordered_map<uintptr_t, unsigned> site_ids;              // instruction (PC) -> id
  struct RecentSite {
    uintptr_t pc = 0;
    unsigned id = 0;
  };
  std::array<RecentSite, 16> recent{};  // a kernel's few global instructions mostly hit here
  std::array<std::vector<WarpInstruction>, kWarpsPerBlock> warp_sites;
  std::array<uint32_t, kWarpsPerBlock> full_lanes{};  // the lanes each warp has
  unsigned threads = 0;                               // in the block
  SectorTable sectors;
  uint64_t clock = 0;                   // sectors touched by the block so far
  uint64_t tracked = 0, untracked = 0;  // accesses (joined as a float4 is) followed exactly, and not
  std::vector<uintptr_t> last_sector = std::vector<uintptr_t>(1024);  // per thread, untracked: footprint
  // Per thread: the few addresses it loaded volatile lately and how often each (a spin polls a flag or two).
  struct RecentLoads {
    std::array<uintptr_t, 4> address{};
    std::array<unsigned, 4> times{};
    unsigned next = 0;
  };
  std::vector<RecentLoads> recent_loads = std::vector<RecentLoads>(1024);
  GlobalCounts counts;
};
constinit thread_local BlockGlobal* this_thread_global = nullptr;

BlockGlobal& block_global() {
  if (!this_thread_global) this_thread_global = new BlockGlobal;  // lives as long as the host thread
  return *this_thread_global;
}

std::mutex global_launch_mutex;
GlobalCounts global_launch_counts;

void touch_sector(BlockGlobal& g, uintptr_t sector_address, bool store) {
  bool fresh;
  uint64_t& entry = g.sectors.find(sector_address / kRequestSectorBytes, fresh);
  const bool written_before = entry & 1;
  if (fresh && !store) {
    ++g.counts.first_load_sectors;
    mark_launch_sector(sector_address, false);
  } else if (!fresh && !store) {
    const uint64_t distance = g.clock - (entry >> 1);
    ++g.counts.load_reuse[std::min<size_t>(std::bit_width(distance), kReuseBins - 1)];
  }
  if (store && !written_before) {
    ++g.counts.first_store_sectors;
    mark_launch_sector(sector_address, true);
  }
  entry = g.clock++ << 1 | (written_before || store);
}

void count_request(BlockGlobal& g, Request& group) {
  if (group.store) {
    ++g.counts.store_requests;
    g.counts.store_sectors += group.sectors;
    g.counts.store_bytes += group.bytes;
  } else {
    ++g.counts.load_requests;
    g.counts.load_sectors += group.sectors;
    g.counts.load_bytes += group.bytes;
  }
  const unsigned kept = std::min(group.sectors, kKeptSectors);
  for (unsigned i = 0; i < kept; ++i) {
    touch_sector(g, group.sector[i], group.store);
    const uintptr_t line = group.sector[i] / 128;
    g.counts.lines +=
        std::none_of(group.sector, group.sector + i, [&](uintptr_t s) { return s / 128 == line; });
  }
  g.counts.lines += group.sectors - kept;
  group.lanes = 0;
}

void add_sectors(Request& group, uintptr_t address, unsigned bytes) {
  for (uintptr_t s = address / kRequestSectorBytes * kRequestSectorBytes; s < address + std::max(bytes, 1u);
       s += kRequestSectorBytes) {
    const unsigned kept = std::min(group.sectors, kKeptSectors);
    if (std::find(group.sector, group.sector + kept, s) != group.sector + kept) continue;
    if (group.sectors < kKeptSectors) group.sector[group.sectors] = s;
    ++group.sectors;
  }
}

unsigned instruction_id(BlockGlobal& g, uintptr_t pc) {
  BlockGlobal::RecentSite& recent = g.recent[(pc >> 2) % g.recent.size()];
  if (recent.pc == pc && pc != 0) return recent.id;
  recent = {pc, g.site_ids.try_emplace(pc, static_cast<unsigned>(g.site_ids.size())).first->second};
  return recent.id;
}

void join_request(BlockGlobal& g, unsigned linear, const HeldAccess& access) {
  const unsigned warp = linear / 32 % kWarpsPerBlock, lane = linear % 32;
  std::vector<WarpInstruction>& of_warp = g.warp_sites[warp];
  const unsigned id = instruction_id(g, access.pc);
  if (of_warp.size() <= id) of_warp.resize(id + 1);
  WarpInstruction& ws = of_warp[id];
  const uint32_t instance = ws.next[lane]++;
  Request& group = ws.ring[instance % kInstancesApart];
  if (group.lanes != 0 && group.instance != instance) count_request(g, group);  // lanes too far apart
  if (group.lanes == 0) {
    group.instance = instance;
    group.store = access.kind != Access::read;
    group.sectors = 0;
    group.bytes = 0;
  }
  group.bytes += access.bytes;
  add_sectors(group, access.address, access.bytes);
  group.lanes |= 1u << lane;
  if (group.lanes == g.full_lanes[warp]) count_request(g, group);
}

// A lane's volatile load of one of its last few volatile addresses polls for another block.
void note_volatile(BlockGlobal::RecentLoads& recent, uintptr_t address, GlobalCounts& counts) {
  for (size_t i = 0; i < recent.address.size(); ++i) {
    if (recent.address[i] != address) continue;
    counts.spins = counts.spins || ++recent.times[i] == kPolls;
    return;
  }
  recent.address[recent.next] = address;
  recent.times[recent.next] = 1;
  recent.next = (recent.next + 1) % recent.address.size();
}

void scale(GlobalCounts& counts, double factor) {
  const auto scaled = [&](uint64_t& n) { n = static_cast<uint64_t>(n * factor + 0.5); };
  for (uint64_t* n : {&counts.load_requests, &counts.store_requests, &counts.load_sectors,
                      &counts.store_sectors, &counts.lines, &counts.first_load_sectors,
                      &counts.first_store_sectors, &counts.load_bytes, &counts.store_bytes})
    scaled(*n);
  for (uint64_t& n : counts.load_reuse) scaled(n);
}

}  // namespace

void note_volatile_load(const void* pointer) {
  if (!work::counting()) return;
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  const ThreadState* thread = current_thread();
  if (!thread || !device_heap.contains(address)) return;
  BlockGlobal& g = block_global();
  note_volatile(g.recent_loads[thread->linear], address, g.counts);
}

void count_global_access(uintptr_t address, size_t bytes, Access kind, uintptr_t pc) {
  ThreadState* thread = current_thread();
  if (!thread || !host_thread_access.counting_global) return;  // host code, or a bulk copy's row
  work::note_kernel_pc(pc);
  record_global_access(*thread, address, bytes, kind, pc);
}

void record_global_access(ThreadState& thread, uintptr_t address, size_t bytes, Access kind, uintptr_t pc) {
  BlockGlobal& g = block_global();
  HeldAccess& held = g.held[thread.linear];
  const auto size = static_cast<unsigned>(std::min<size_t>(bytes, 16));
  // (a loop's next access comes from the same instruction: never joined)
  if (held.valid && held.kind == kind && held.pc != pc && held.address + held.bytes == address &&
      held.address % 8 == 0 && size <= 8 && held.bytes + size <= (held.address % 16 == 0 ? 16u : 8u)) {
    held.bytes += size;
    return;
  }
  if (held.valid && held.tracked) join_request(g, thread.linear, held);
  work::count(work::Kind::global);  // may end the block here, at the estimate's budget
  const bool tracked = g.tracked < kTrackedAccesses;
  held = HeldAccess{true, tracked, kind, size, address, pc};
  if (tracked) {
    ++g.tracked;
    thread.block->control->yield_thread(thread);
    return;
  }
  ++g.untracked;
  if (uintptr_t& last = g.last_sector[thread.linear]; last != address / kRequestSectorBytes) {
    last = address / kRequestSectorBytes;
    mark_launch_sector(address, kind != Access::read);
  }
}

void count_bulk_row(uintptr_t address, size_t bytes, bool store) {
  if (!work::counting() || !current_thread()) return;
  BlockGlobal& g = block_global();
  for (uintptr_t s = address / kRequestSectorBytes * kRequestSectorBytes; s < address + bytes;
       s += kRequestSectorBytes) {
    touch_sector(g, s, store);
    ++(store ? g.counts.store_sectors : g.counts.load_sectors);
  }
  (store ? g.counts.store_bytes : g.counts.load_bytes) += bytes;
  work::count_copy_access(bytes);
}

void count_bulk_copy(bool store) {
  if (!work::counting() || !current_thread()) return;
  ++(store ? block_global().counts.store_requests : block_global().counts.load_requests);
}

void settle_global_groups() {
  BlockGlobal& g = block_global();
  for (unsigned t = 0; t < g.threads; ++t) {
    if (g.held[t].valid && g.held[t].tracked) join_request(g, t, g.held[t]);
    g.held[t].valid = false;
  }
  for (std::vector<WarpInstruction>& of_warp : g.warp_sites) {
    for (WarpInstruction& ws : of_warp) {
      std::vector<Request*> pending;
      for (Request& group : ws.ring)
        if (group.lanes != 0) pending.push_back(&group);
      std::sort(pending.begin(), pending.end(),
                [](Request* a, Request* b) { return a->instance < b->instance; });
      for (Request* group : pending) count_request(g, *group);
      std::fill(std::begin(ws.next), std::end(ws.next), 0);
    }
  }
}

void begin_global_block(unsigned threads) {
  host_thread_access.counting_global = true;  // a block stopped inside a bulk copy left it off
  BlockGlobal& g = block_global();
  g.threads = threads;
  for (unsigned w = 0; w < kWarpsPerBlock; ++w) {
    const unsigned lanes = w * 32 < threads ? std::min(32u, threads - w * 32) : 0;
    g.full_lanes[w] = lanes == 32 ? ~0u : (1u << lanes) - 1;
  }
  g.counts = GlobalCounts{};
  g.clock = 0;
  g.tracked = g.untracked = 0;
  std::fill_n(g.last_sector.begin(), threads, 0);
  std::fill_n(g.recent_loads.begin(), threads, BlockGlobal::RecentLoads{});
}

void end_global_block() {
  BlockGlobal& g = block_global();
  settle_global_groups();
  if (g.untracked > 0) scale(g.counts, static_cast<double>(g.tracked + g.untracked) / g.tracked);
  {
    std::lock_guard lock(global_launch_mutex);
    global_launch_counts.load_requests += g.counts.load_requests;
    global_launch_counts.store_requests += g.counts.store_requests;
    global_launch_counts.load_sectors += g.counts.load_sectors;
    global_launch_counts.store_sectors += g.counts.store_sectors;
    global_launch_counts.lines += g.counts.lines;
    global_launch_counts.load_bytes += g.counts.load_bytes;
    global_launch_counts.store_bytes += g.counts.store_bytes;
    global_launch_counts.spins = global_launch_counts.spins || g.counts.spins;
    for (size_t b = 0; b < kReuseBins; ++b) global_launch_counts.load_reuse[b] += g.counts.load_reuse[b];
    global_launch_counts.first_load_sectors += g.counts.first_load_sectors;
    global_launch_counts.first_store_sectors += g.counts.first_store_sectors;
  }
  g.sectors.clear();
  g.site_ids.clear();
  g.recent.fill({});
  for (std::vector<WarpInstruction>& of_warp : g.warp_sites) of_warp.clear();
}

GlobalCounts take_global_counts() {
  std::lock_guard lock(global_launch_mutex);
  return std::exchange(global_launch_counts, GlobalCounts{});
}

}  // namespace sim::memory
