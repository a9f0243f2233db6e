// Race tracking for shared memory: per 4-byte word, the last write and the reads since, each with
// the thread, its barrier interval (epoch) and its warp's collective count (warp epoch). Two
// accesses by different threads to the same bytes in one epoch race, at least one writing, unless
// both are atomic or a warp collective of their common warp completed between them.
// Inline: it runs for every shared-memory access, and its records should stay in registers.
#pragma once
#include <array>
#include <cstdint>

#include "diagnostics/report.hpp"
#include "memory/access_kind.hpp"

namespace sim::memory {

// 24 bytes built in registers: the shadow is written on every shared access, and copying a
// struct of mixed-size fields through memory stalls store forwarding.
class WordAccess {
 public:
  WordAccess() = default;
  // `where`: a PC, or a file and line (runtime calls: atomics). Lines above 65535 are clamped.
  WordAccess(uint64_t epoch, const Where& where, uint32_t warp_epoch, unsigned thread, Access kind)
      : epoch_(epoch),
        origin_(where.line ? reinterpret_cast<uintptr_t>(where.file) : where.pc),
        info_(warp_epoch | uint64_t{thread & 0x3FF} << 32 | uint64_t{static_cast<uint8_t>(kind)} << 46 |
              uint64_t{where.line < 0xFFFF ? static_cast<uint32_t>(where.line) : 0xFFFFu} << 48) {}

  uint64_t epoch() const { return epoch_; }  // 0: none; else unique per block and barrier interval
  uint32_t warp_epoch() const { return static_cast<uint32_t>(info_); }
  unsigned thread() const { return (info_ >> 32) & 0x3FF; }  // linear index in the block
  unsigned bytes() const { return (info_ >> 42) & 0xF; }     // which bytes of the word, one bit each
  Access kind() const { return static_cast<Access>((info_ >> 46) & 3); }
  Where where() const {
    const int line = static_cast<int>(info_ >> 48);
    return line ? Where{reinterpret_cast<const char*>(origin_), line} : Where{nullptr, 0, origin_};
  }

  void set_bytes(unsigned mask) { info_ = (info_ & ~(uint64_t{0xF} << 42)) | uint64_t{mask} << 42; }
  void clear() { epoch_ = 0; }

 private:
  uint64_t epoch_ = 0;
  uintptr_t origin_ = 0;
  uint64_t info_ = 0;  // warp epoch | thread << 32 | bytes << 42 | kind << 46 | line << 48
};

struct WordShadow {
  WordAccess write;
  std::array<WordAccess, 2> reads;  // the first reader of the epoch and the latest other one
};

inline bool races(const WordAccess& earlier, const WordAccess& now) {
  if (earlier.epoch() != now.epoch() || earlier.thread() == now.thread() || !(earlier.bytes() & now.bytes()))
    return false;
  if (earlier.kind() == Access::atomic && now.kind() == Access::atomic) return false;
  const bool same_warp = earlier.thread() / 32 == now.thread() / 32;
  return !same_warp || earlier.warp_epoch() == now.warp_epoch();
}

// Records `access` to `word`. Returns true, with the earlier access in `conflict`, on a race.
// Every stored access really happened (a thread's later access replaces its earlier one), so a
// reported race is real; forgetting older accesses can only miss races.
inline bool record_word_access(WordShadow& word, const WordAccess& access, WordAccess& conflict) {
  bool raced = races(word.write, access);
  if (raced) conflict = word.write;
  if (access.kind() == Access::read) {
    auto& [first, other] = word.reads;
    if (first.epoch() != access.epoch()) {
      first = access;
      other.clear();
    } else if (first.thread() == access.thread()) {
      first = access;
    } else {
      other = access;
    }
    return raced;
  }
  for (const WordAccess& read : word.reads) {
    if (!raced && races(read, access)) {
      raced = true;
      conflict = read;
    }
  }
  word.write = access;
  return raced;
}

}  // namespace sim::memory
