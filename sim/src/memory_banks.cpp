#include "memory_banks.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>

#include "diagnostics_symbolize.hpp"

namespace sim::memory {
namespace {

constexpr unsigned kBanks = 32;

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

struct GroupKey {
  Site site;
  unsigned warp = 0;
  uint32_t instance = 0;
  bool operator==(const GroupKey&) const = default;
};
struct GroupHash {
  size_t operator()(const GroupKey& k) const {
    return SiteHash()(k.site) ^ (k.warp * 0x9E3779B9u) ^ (uint64_t{k.instance} << 32);
  }
};

struct LaneSite {
  Site site;
  unsigned thread = 0;
  bool operator==(const LaneSite&) const = default;
};
struct LaneSiteHash {
  size_t operator()(const LaneSite& k) const { return SiteHash()(k.site) ^ (k.thread * 0x85EBCA6Bu); }
};

struct Group {
  uint32_t lanes = 0;
  unsigned bytes = 0;
  uint64_t addresses[32];
};

struct Totals {
  uint64_t instructions = 0, wavefronts = 0, ideal = 0;
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
  std::vector<LaneAccess> held = std::vector<LaneAccess>(1024);   // per thread of the block
  std::unordered_map<LaneSite, uint32_t, LaneSiteHash> executed;  // instances so far, per lane and site
  std::unordered_map<GroupKey, Group, GroupHash> open;
  std::unordered_map<Site, Totals, SiteHash> totals;
};
thread_local BlockBanks block_banks;

std::mutex all_mutex;
std::unordered_map<Site, Totals, SiteHash> all_totals;

void count(BlockBanks& banks, const Site& site, const Group& group) {
  const Wavefronts w = count_wavefronts(group.addresses, group.lanes, group.bytes);
  Totals& t = banks.totals[site];
  ++t.instructions;
  t.wavefronts += w.needed;
  t.ideal += w.ideal;
}

uint32_t existing_lanes(const ThreadState& thread) {
  const dim3& d = thread.block->block_dim;
  const unsigned threads = d.x * d.y * d.z, first = thread.warp * 32;
  const unsigned lanes = std::min(32u, threads - first);
  return lanes == 32 ? ~0u : (1u << lanes) - 1;
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
    // Distinct words, then how many fall in each bank (a small array: this runs on a fiber's stack).
    uint64_t words[32 * 4];
    unsigned n = 0;
    for (uint32_t a = active; a != 0; a &= a - 1) {
      const uint64_t address = addresses[std::countr_zero(a)];
      for (uint64_t word = address / 4; word <= (address + std::max(bytes, 1u) - 1) / 4; ++word)
        words[n++] = word;
    }
    std::sort(words, words + n);
    n = static_cast<unsigned>(std::unique(words, words + n) - words);
    unsigned per_bank[kBanks] = {}, most = 0;
    for (unsigned i = 0; i < n; ++i) most = std::max(most, ++per_bank[words[i] % kBanks]);
    w.needed += most;
  }
  return w;
}

namespace {

void add_to_group(BlockBanks& banks, const LaneAccess& access) {
  const ThreadState& thread = *access.thread;
  const uint32_t instance = banks.executed[LaneSite{access.site, thread.linear}]++;
  const GroupKey key{access.site, thread.warp, instance};
  Group& group = banks.open[key];
  group.bytes = access.bytes;
  group.addresses[thread.lane] = access.address;
  group.lanes |= 1u << thread.lane;
  if (group.lanes == existing_lanes(thread)) {
    count(banks, access.site, group);
    banks.open.erase(key);
  }
}

}  // namespace

// The host compiler splits a float4 or float2 access into scalar ones where nvcc emits one 128- or
// 64-bit instruction, and those cost different wavefronts. So a lane's accesses that continue one
// another (same direction, the next address, within an aligned 8 or 16 bytes) join into one access,
// as a vectorizing compiler would make them.
void record_bank_access(const ThreadState& thread, uintptr_t address, size_t bytes, bool write,
                        const Where& where) {
  BlockBanks& banks = block_banks;
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
  BlockBanks& banks = block_banks;
  for (LaneAccess& held : banks.held) {
    if (held.thread) add_to_group(banks, held);
    held.thread = nullptr;
  }
  for (const auto& [key, group] : banks.open) count(banks, key.site, group);
  banks.open.clear();
}

void end_block_banks() {
  settle_bank_groups();
  BlockBanks& banks = block_banks;
  banks.executed.clear();
  if (banks.totals.empty()) return;
  std::lock_guard lock(all_mutex);
  for (const auto& [site, t] : banks.totals) {
    Totals& all = all_totals[site];
    all.instructions += t.instructions;
    all.wavefronts += t.wavefronts;
    all.ideal += t.ideal;
  }
  banks.totals.clear();
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
  }
  std::vector<harness::SharedWavefronts> result;
  for (auto& [line, w] : by_line) result.push_back(std::move(w));
  return result;
}

}  // namespace sim::memory
