// The async proxy's accesses to shared memory (memory/async_proxy.hpp).
#include "memory/async_proxy.hpp"

#include <algorithm>
#include <cstring>

#include "core/context.hpp"
#include "diagnostics/store.hpp"
#include "memory/access.hpp"
#include "memory/shared_layout.hpp"

namespace sim::memory {
namespace {

SharedBlock* running_shared() {
  const ThreadState* thread = current_thread();
  if (!thread || !thread->block || !thread->block->shared) return nullptr;
  return static_cast<SharedBlock*>(thread->block->shared);
}

const AsyncRead* reader_of(const SharedBlock& block, size_t offset, size_t bytes) {
  for (const AsyncRead& read : block.async_reads) {
    for (const auto& [lo, hi] : read.spans)
      if (offset < hi && lo < offset + bytes) return &read;
  }
  return nullptr;
}

void set_async_read(SharedBlock& block, const SharedSpans& spans) {
  for (const auto& [lo, hi] : spans)
    for (uint32_t i = lo; i < hi; ++i) block.byte_state[i] |= kAsyncRead;
}

}  // namespace

bool shared_span_valid(size_t offset, size_t bytes) {
  const SharedBlock* block = running_shared();
  if (!block || offset + bytes > SharedLayout::kArenaBytes || offset + bytes < offset) return false;
  for (size_t i = 0; i < bytes; ++i)
    if (!(block->byte_state[offset + i] & kAddressable)) return false;
  return true;
}

bool async_proxy_read(size_t offset, size_t bytes, const std::string& reader, const Where& where) {
  if (!shared_span_valid(offset, bytes)) return false;
  SharedBlock& block = *running_shared();
  const uint8_t* state = block.byte_state + offset;
  bool uninitialized = false, unfenced = false;
  for (size_t i = 0; i < bytes; ++i) {
    uninitialized = uninitialized || !(state[i] & kInitialized);
    unfenced = unfenced || (state[i] & kUnfenced);
  }
  if (uninitialized && !count_repeat("shared_uninit_read", where))
    report(Severity::warning, "shared_uninit_read", where,
           reader + " reads " + shared_element(block, offset, bytes) +
               ", which nothing of this block has written yet (shared memory starts uninitialized)");
  if (unfenced && !count_repeat("async_proxy_unfenced", where)) {
    const WordShadow& word = block.words[offset / 4];
    const Where stored = word.write.where();
    report_related(
        Severity::error, "async_proxy_unfenced", where, stored,
        reader + " reads " + shared_element(block, offset, bytes) +
            ", which a thread stored to (at {related}) with no fence.proxy.async since: the tensor "
            "cores and the copy engine (the async proxy) may not see a store of the generic proxy "
            "until the storing threads execute fence.proxy.async.shared::cta (then a barrier, so "
            "that the issuing thread comes after it)");
  }
  return true;
}

void async_proxy_write(size_t offset, const void* data, size_t bytes, const std::string& writer,
                       const Where& where) {
  SharedBlock& block = *running_shared();
  uint8_t* state = block.byte_state + offset;
  for (size_t i = 0; i < bytes; ++i) {
    if (state[i] & kAsyncRead) {
      report_async_read_overwritten(block, offset + i, bytes - i, writer, where);
      break;
    }
  }
  std::memcpy(block.arena + offset, data, bytes);
  for (size_t i = 0; i < bytes; ++i) state[i] = static_cast<uint8_t>((state[i] | kInitialized) & ~kUnfenced);
  for (size_t word = offset / 4; word < (offset + bytes + 3) / 4; ++word) block.words[word] = WordShadow{};
  block.dirty_bytes = std::max(block.dirty_bytes, offset + bytes);
}

uint64_t begin_async_read(const SharedSpans& spans, std::string reader) {
  SharedBlock& block = *running_shared();
  static thread_local uint64_t next_id = 1;
  block.async_reads.push_back({next_id, spans, std::move(reader)});
  set_async_read(block, spans);
  return next_id++;
}

void end_async_read(uint64_t id) {
  SharedBlock* block = running_shared();
  if (!block) return;
  auto& reads = block->async_reads;
  const auto found = std::find_if(reads.begin(), reads.end(), [&](const AsyncRead& r) { return r.id == id; });
  if (found == reads.end()) return;
  for (const auto& [lo, hi] : found->spans)
    for (uint32_t i = lo; i < hi; ++i) block->byte_state[i] &= ~kAsyncRead;
  reads.erase(found);
  for (const AsyncRead& other : reads) set_async_read(*block, other.spans);  // shared bytes stay marked
}

void fence_async_proxy() {
  SharedBlock* block = running_shared();
  if (!block) return;
  for (size_t i = block->unfenced_lo; i < block->unfenced_hi; ++i) block->byte_state[i] &= ~kUnfenced;
  block->unfenced_lo = block->unfenced_hi = 0;
}

uint32_t next_bulk_copy_serial() {
  return running_shared()->next_copy++;
}

void tag_chunk(size_t offset, ChunkTag tag) {
  running_shared()->chunk_tags[offset / 16] = tag;
}

ChunkTag chunk_tag(size_t offset) {
  const SharedBlock* block = running_shared();
  const ChunkTag tag = block->chunk_tags[offset / 16];
  return tag.copy >= block->first_copy ? tag : ChunkTag{};
}

void note_unfenced(SharedBlock& block, size_t offset, size_t bytes) {
  if (block.unfenced_hi == 0) {
    block.unfenced_lo = offset;
    block.unfenced_hi = offset + bytes;
    return;
  }
  block.unfenced_lo = std::min(block.unfenced_lo, offset);
  block.unfenced_hi = std::max(block.unfenced_hi, offset + bytes);
}

void report_async_read_overwritten(SharedBlock& block, size_t offset, size_t bytes, const std::string& writer,
                                   const Where& where) {
  if (count_repeat("wgmma_operand_overwritten", where)) return;
  const AsyncRead* read = reader_of(block, offset, bytes);
  report(Severity::error, "wgmma_operand_overwritten", where,
         writer + " writes " + shared_element(block, offset, bytes) + " while " +
             (read ? read->reader : std::string("an asynchronous read")) +
             " still reads it: that read completes only when the issuing threads' wgmma.wait_group (or "
             "cp.async.bulk.wait_group.read) covers its group, so a stage of a pipeline may be handed back "
             "(refilled) only after that wait");
}

}  // namespace sim::memory
