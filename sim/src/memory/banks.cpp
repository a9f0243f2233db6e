#include "memory/banks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>

#include "core/work_counters.hpp"
#include "diagnostics/symbolize.hpp"

namespace sim::memory {
namespace {

constexpr unsigned kBanks = 32;
constexpr unsigned kMaxWarps = 32;

struct Site {  // one instruction: its PC, or the source location of a modelled asm statement
  uintptr_t pc = 0;
  const char* file = nullptr;
  int line = 0;
  bool operator==(const Site&) const = default;
};
struct SiteHash {
  size_t operator()(const Site& s) const {
    return std::hash<uintptr_t>()(s.pc ^ reinterpret_cast<uintptr_t>(s.file) * 31 ^
                                  static_cast<uintptr_t>(s.line) << 20);
  }
};

// One execution of an instruction by a warp: the lanes that have joined it so far.
struct Group {
  uint32_t lanes = 0;
  unsigned bytes = 0;
  bool counted = false;
  uint32_t offsets[32];  // shared-memory offsets (the arena is 4 MiB)
};

// An instruction's executions by one warp since the last __syncthreads(): every lane passes each
// barrier, so counting instances from there keeps the lanes' k-th executions together.
struct WarpSite {
  uint32_t next[32] = {};  // the instance each lane executes next
  std::vector<Group> groups;
};

struct Totals {
  uint64_t instructions = 0, wavefronts = 0, ideal = 0;
  bool uneven = false;  // SharedWavefronts::uneven
};

// A lane's latest access, held back in case the next one continues it (see record_bank_access).
struct LaneAccess {
  const ThreadState* thread = nullptr;  // nullptr: none held
  Site site;
  uint64_t address = 0;
  unsigned bytes = 0;
  bool write = false;
};

// The running block's accesses on this host thread.
struct BlockBanks {
  std::vector<LaneAccess> held = std::vector<LaneAccess>(1024);  // per thread of the block
  std::unordered_map<Site, unsigned, SiteHash> site_ids;
  std::vector<Site> sites;                                  // by id
  std::vector<Totals> totals;                               // by id
  std::array<std::vector<WarpSite>, kMaxWarps> warp_sites;  // [warp][site id]
  // Recent lookups by PC bits: a kernel's few shared-memory instructions mostly hit here.
  struct Recent {
    Site site;
    unsigned id = ~0u;
  };
  std::array<Recent, 64> recent;
};
// A pointer, not the object: a thread_local with a constructor costs a call on every access.
constinit thread_local BlockBanks* this_thread_banks = nullptr;

inline BlockBanks& block_banks() {
  if (!this_thread_banks) this_thread_banks = new BlockBanks;  // lives as long as the host thread's pool
  return *this_thread_banks;
}

std::mutex all_mutex;
std::unordered_map<Site, Totals, SiteHash> all_totals;

unsigned site_id(BlockBanks& banks, const Site& site) {
  BlockBanks::Recent& recent =
      banks.recent[(site.pc >> 1 ^ static_cast<uintptr_t>(site.line)) % banks.recent.size()];
  if (recent.id != ~0u && recent.site == site) return recent.id;
  auto [it, fresh] = banks.site_ids.try_emplace(site, static_cast<unsigned>(banks.sites.size()));
  if (fresh) {
    banks.sites.push_back(site);
    banks.totals.emplace_back();
  }
  recent = {site, it->second};
  return it->second;
}

void count(BlockBanks& banks, unsigned id, Group& group) {
  uint64_t addresses[32];
  for (uint32_t l = group.lanes; l != 0; l &= l - 1)
    addresses[std::countr_zero(l)] = group.offsets[std::countr_zero(l)];
  const Wavefronts w = count_wavefronts(addresses, group.lanes, group.bytes);
  Totals& t = banks.totals[id];
  ++t.instructions;
  t.wavefronts += w.needed;
  t.ideal += w.ideal;
  group.counted = true;
  work::count_shared_request(w.needed, w.ideal);
}

uint32_t existing_lanes(const ThreadState& thread) {
  const dim3& d = thread.block->block_dim;
  const unsigned threads = d.x * d.y * d.z, first = thread.warp * 32;
  const unsigned lanes = std::min(32u, threads - first);
  return lanes == 32 ? ~0u : (1u << lanes) - 1;
}

void add_to_group(BlockBanks& banks, const LaneAccess& access) {
  const ThreadState& thread = *access.thread;
  const unsigned id = site_id(banks, access.site);
  std::vector<WarpSite>& of_warp = banks.warp_sites[thread.warp % kMaxWarps];
  if (of_warp.size() <= id) of_warp.resize(id + 1);
  WarpSite& ws = of_warp[id];
  const uint32_t instance = ws.next[thread.lane]++;
  if (ws.groups.size() <= instance) ws.groups.resize(instance + 1);
  Group& group = ws.groups[instance];
  group.bytes = access.bytes;
  group.offsets[thread.lane] = static_cast<uint32_t>(access.address);
  group.lanes |= 1u << thread.lane;
  if (group.lanes == existing_lanes(thread)) count(banks, id, group);
}

}  // namespace

Wavefronts count_wavefronts(const uint64_t* addresses, uint32_t lanes, unsigned bytes) {
  const unsigned phase_lanes = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
  Wavefronts w;
  for (unsigned first = 0; first < 32; first += phase_lanes) {
    const uint32_t phase_mask = phase_lanes == 32 ? ~0u : ((1u << phase_lanes) - 1) << first;
    const uint32_t active = lanes & phase_mask;
    if (active == 0) continue;
    ++w.ideal;
    // Distinct words per bank: a word joins its bank's list unless it is there already (a broadcast).
    uint64_t words[kBanks][32];
    unsigned per_bank[kBanks] = {}, most = 0;
    for (uint32_t a = active; a != 0; a &= a - 1) {
      const uint64_t address = addresses[std::countr_zero(a)];
      for (uint64_t word = address / 4; word <= (address + std::max(bytes, 1u) - 1) / 4; ++word) {
        const unsigned bank = word % kBanks;
        if (std::find(words[bank], words[bank] + per_bank[bank], word) != words[bank] + per_bank[bank])
          continue;
        if (per_bank[bank] < 32) words[bank][per_bank[bank]++] = word;
        most = std::max(most, per_bank[bank]);
      }
    }
    w.needed += most;
  }
  return w;
}

// The host compiler splits a float4 or float2 access into scalar ones where nvcc emits one 128- or
// 64-bit instruction, and those cost different wavefronts. So a lane's accesses that continue one
// another (same direction, the next address, within an aligned 8 or 16 bytes) join into one access,
// as a vectorizing compiler would make them.
void record_bank_access(const ThreadState& thread, uintptr_t address, size_t bytes, bool write,
                        const Where& where) {
  work::count(work::Kind::shared);
  BlockBanks& banks = block_banks();
  LaneAccess& held = banks.held[thread.linear];
  const auto size = static_cast<unsigned>(std::min<size_t>(bytes, 16));
  if (held.thread && held.write == write && held.address + held.bytes == address && held.address % 8 == 0 &&
      size <= 8 && held.bytes + size <= (held.address % 16 == 0 ? 16u : 8u)) {
    held.bytes += size;
    return;
  }
  if (held.thread) add_to_group(banks, held);
  held = LaneAccess{&thread, Site{where.pc, where.pc ? nullptr : where.file, where.pc ? 0 : where.line},
                    address, size, write};
}

void settle_bank_groups() {
  BlockBanks& banks = block_banks();
  for (LaneAccess& held : banks.held) {
    if (held.thread) add_to_group(banks, held);
    held.thread = nullptr;
  }
  for (std::vector<WarpSite>& of_warp : banks.warp_sites) {
    for (unsigned id = 0; id < of_warp.size(); ++id) {
      WarpSite& ws = of_warp[id];
      // Lanes that ran the line at all ran it equally often, or the pairing by count is a guess.
      uint32_t fewest = ~0u, most = 0;
      for (const uint32_t runs : ws.next) {
        if (runs == 0) continue;
        fewest = std::min(fewest, runs);
        most = std::max(most, runs);
      }
      if (most > 0 && fewest != most) banks.totals[id].uneven = true;
      for (Group& group : ws.groups)
        if (!group.counted && group.lanes != 0) count(banks, id, group);
      ws.groups.clear();
      std::fill(std::begin(ws.next), std::end(ws.next), 0);
    }
  }
}

void end_block_banks() {
  settle_bank_groups();
  BlockBanks& banks = block_banks();
  if (!banks.sites.empty()) {
    std::lock_guard lock(all_mutex);
    for (size_t id = 0; id < banks.sites.size(); ++id) {
      Totals& all = all_totals[banks.sites[id]];
      all.instructions += banks.totals[id].instructions;
      all.wavefronts += banks.totals[id].wavefronts;
      all.ideal += banks.totals[id].ideal;
      all.uneven = all.uneven || banks.totals[id].uneven;
    }
  }
  banks.site_ids.clear();
  banks.sites.clear();
  banks.totals.clear();
  banks.recent.fill({});
  for (std::vector<WarpSite>& of_warp : banks.warp_sites) of_warp.clear();
}

void reset_bank_counts() {
  std::lock_guard lock(all_mutex);
  all_totals.clear();
}

std::vector<harness::SharedWavefronts> bank_counts() {
  std::lock_guard lock(all_mutex);
  std::vector<uintptr_t> pcs;
  for (const auto& [site, t] : all_totals)
    if (site.pc) pcs.push_back(site.pc);
  const std::vector<SourceLine> lines = symbolize(pcs);
  std::map<std::pair<std::string, int>, harness::SharedWavefronts> by_line;
  size_t next_pc = 0;
  for (const auto& [site, t] : all_totals) {
    std::pair<std::string, int> line{site.file ? site.file : "", site.line};
    if (site.pc) {
      const SourceLine& s = lines[next_pc++];
      line = {s.file, s.line};
    }
    harness::SharedWavefronts& w = by_line[line];
    w.file = line.first;
    w.line = line.second;
    w.instructions += t.instructions;
    w.wavefronts += t.wavefronts;
    w.ideal_wavefronts += t.ideal;
    w.uneven = w.uneven || t.uneven;
  }
  std::vector<harness::SharedWavefronts> result;
  for (auto& [line, w] : by_line) result.push_back(std::move(w));
  return result;
}

}  // namespace sim::memory
