#include "diagnostics/store.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

#include "core/context.hpp"
#include "diagnostics/symbolize.hpp"

namespace sim {
namespace {

// A wrong kernel repeats the same mistake in every thread: fold those, and bound the distinct ones.
constexpr size_t kMaxFindings = 64;

struct Record {
  Severity severity = Severity::error;
  const char* kind = "";
  Where where, related;
  std::string message;
  std::array<int, 3> block{-1, -1, -1}, thread{-1, -1, -1};
  std::atomic<uint64_t> count{0};
};

struct Store {
  std::mutex mutex;
  std::array<Record, kMaxFindings> records;
  size_t used = 0;
  std::atomic<uint64_t> dropped{0};     // occurrences of findings beyond kMaxFindings
  std::atomic<uint64_t> generation{1};  // invalidates the per-thread caches
};

Store& store() {
  static Store instance;
  return instance;
}

bool same_where(Where a, Where b) {
  if (a.pc != b.pc || a.line != b.line) return false;
  return a.file == b.file || (a.file && b.file && std::strcmp(a.file, b.file) == 0);
}

// Per host thread, the last findings it hit (by pointer identity), so that a kernel repeating a
// finding millions of times counts it without taking the lock.
struct RecentFinding {
  uint64_t generation = 0;
  const char* kind = nullptr;
  Where where;
  Record* record = nullptr;  // nullptr: dropped for lack of room
};
constexpr size_t kRecentFindings = 4;
constinit thread_local std::array<RecentFinding, kRecentFindings> recent_findings
    [[gnu::tls_model("initial-exec")]]{};
constinit thread_local size_t next_recent [[gnu::tls_model("initial-exec")]] = 0;

void count(Store& s, Record* record) {
  if (record) {
    record->count.fetch_add(1, std::memory_order_relaxed);
  } else {
    s.dropped.fetch_add(1, std::memory_order_relaxed);
  }
}

void remember(uint64_t generation, const char* kind, Where where, Record* record) {
  recent_findings[next_recent] = {generation, kind, where, record};
  next_recent = (next_recent + 1) % kRecentFindings;
}

// With s.mutex held: the record for (kind, where), nullptr if none.
Record* find_locked(Store& s, const char* kind, Where where) {
  for (size_t i = 0; i < s.used; ++i) {
    Record& r = s.records[i];
    if (std::strcmp(r.kind, kind) == 0 && same_where(r.where, where)) return &r;
  }
  return nullptr;
}

void attach_current_thread(Record& r) {
  const ThreadState* t = current_thread();
  if (!t) return;
  r.thread = {static_cast<int>(t->thread_idx.x), static_cast<int>(t->thread_idx.y),
              static_cast<int>(t->thread_idx.z)};
  if (t->block) {
    const uint3& b = t->block->block_idx;
    r.block = {static_cast<int>(b.x), static_cast<int>(b.y), static_cast<int>(b.z)};
  }
}

std::string basename(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

std::string describe(const SourceLine& where) {
  if (where.file.empty()) return "an unknown line";
  return basename(where.file) + ":" + std::to_string(where.line);
}

// Both locations of every record: PCs go to the symbolizer in one batch.
std::vector<SourceLine> resolve(const std::vector<Where>& wheres) {
  std::vector<uintptr_t> pcs;
  for (const Where& w : wheres)
    if (w.pc) pcs.push_back(w.pc);
  std::vector<SourceLine> symbolized = symbolize(pcs);
  std::vector<SourceLine> lines;
  size_t next_pc = 0;
  for (const Where& w : wheres) {
    if (w.pc) {
      lines.push_back(symbolized[next_pc++]);
    } else {
      lines.push_back({w.file ? w.file : "", w.line});
    }
  }
  return lines;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace

bool count_repeat(const char* kind, Where where) noexcept {
  Store& s = store();
  const uint64_t generation = s.generation.load(std::memory_order_relaxed);
  for (const RecentFinding& f : recent_findings) {
    if (f.generation == generation && f.kind == kind && same_where(f.where, where)) {
      count(s, f.record);
      return true;
    }
  }
  std::lock_guard lock(s.mutex);
  Record* record = find_locked(s, kind, where);
  if (!record && s.used < kMaxFindings) return false;
  remember(generation, kind, where, record);
  count(s, record);
  return true;
}

void report_related(Severity severity, const char* kind, Where where, Where related, std::string message) {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  if (Record* existing = find_locked(s, kind, where)) return count(s, existing);
  if (s.used == kMaxFindings) return count(s, nullptr);
  Record& r = s.records[s.used++];
  r.severity = severity;
  r.kind = kind;
  r.where = where;
  r.related = related;
  r.message = std::move(message);
  r.block = r.thread = {-1, -1, -1};
  attach_current_thread(r);
  r.count.store(1, std::memory_order_relaxed);
}

void revise_finding(Severity severity, const char* kind, Where where, Where related, std::string message) {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  Record* r = find_locked(s, kind, where);
  if (!r) {
    if (s.used == kMaxFindings) return;
    r = &s.records[s.used++];
    r->kind = kind;
    r->where = where;
    r->count.store(1, std::memory_order_relaxed);
  }
  r->severity = severity;
  r->related = related;
  r->message = std::move(message);
  r->block = r->thread = {-1, -1, -1};
  attach_current_thread(*r);
}

void report(Severity severity, const char* kind, Where where, std::string message) {
  report_related(severity, kind, where, Where{}, std::move(message));
}

void clear_findings() {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  s.used = 0;
  s.dropped.store(0, std::memory_order_relaxed);
  s.generation.fetch_add(1, std::memory_order_relaxed);
}

std::vector<harness::Finding> collect_findings() {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  std::vector<Where> wheres;
  for (size_t i = 0; i < s.used; ++i) {
    wheres.push_back(s.records[i].where);
    wheres.push_back(s.records[i].related);
  }
  const std::vector<SourceLine> lines = resolve(wheres);

  std::vector<harness::Finding> findings;
  for (size_t i = 0; i < s.used; ++i) {
    const Record& r = s.records[i];
    harness::Finding f;
    f.severity = r.severity == Severity::error ? "error" : "warning";
    f.kind = r.kind;
    f.message = r.message;
    replace_all(f.message, "{related}", describe(lines[2 * i + 1]));
    f.file = lines[2 * i].file;
    f.line = lines[2 * i].line;
    std::copy(r.block.begin(), r.block.end(), f.block);
    std::copy(r.thread.begin(), r.thread.end(), f.thread);
    f.count = r.count.load(std::memory_order_relaxed);
    findings.push_back(std::move(f));
  }
  if (const uint64_t dropped = s.dropped.load(std::memory_order_relaxed)) {
    harness::Finding f;
    f.severity = "warning";
    f.kind = "findings_truncated";
    f.message = std::to_string(dropped) +
                " more occurrences of other findings were not recorded (only the first " +
                std::to_string(kMaxFindings) + " distinct findings are kept)";
    f.count = dropped;
    findings.push_back(std::move(f));
  }
  std::stable_partition(findings.begin(), findings.end(),
                        [](const harness::Finding& f) { return f.severity == "error"; });
  return findings;
}

}  // namespace sim
