// cp.async (include/cuda_pipeline_primitives.h): a copy is checked when it is issued and performed
// when the issuing thread waits for its batch, through the same checks and traffic counts as a load
// and a store of the thread.
#include <cstring>
#include <string>

#include "core/context.hpp"
#include "diagnostics/describe.hpp"
#include "memory/access.hpp"

namespace {

using sim::memory::Access;

bool issue_error(const char* kind, const std::source_location& where, std::string message) {
  sim::report(sim::Severity::error, kind, sim::where_of(where), std::move(message));
  return false;
}

bool valid_copy(const void* dst, const void* src, size_t bytes, size_t zeros,
                const std::source_location& where) {
  if ((bytes != 4 && bytes != 8 && bytes != 16) || zeros > bytes)
    return issue_error("async_copy_invalid", where,
                       "__pipeline_memcpy_async copies 4, 8 or 16 bytes with at most that many zero-filled; "
                       "this call asks for " +
                           std::to_string(bytes) + " bytes, " + std::to_string(zeros) +
                           " of them zero-filled");
  const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  const auto& local = sim::memory::host_thread_access;
  if (d - local.shared_lo >= local.shared_size)
    return issue_error("async_copy_bad_pointer", where,
                       "__pipeline_memcpy_async's destination is not this block's shared memory: cp.async "
                       "copies from global memory to shared memory only");
  if (!sim::memory::device_heap.contains(s))
    return issue_error("async_copy_bad_pointer", where,
                       "__pipeline_memcpy_async's source is not device memory from cudaMalloc: cp.async "
                       "copies from global memory to shared memory only");
  if (d % bytes != 0 || s % bytes != 0)
    return issue_error("misaligned_access", where,
                       "__pipeline_memcpy_async of " + std::to_string(bytes) +
                           " bytes needs both addresses aligned to " + std::to_string(bytes) +
                           " bytes (on a GPU: cudaErrorMisalignedAddress)");
  return true;
}

void land(const sim::PendingCopy& copy) {
  const sim::Where where = sim::where_of(copy.where);
  const unsigned read = copy.bytes - copy.zeros;
  auto& local = sim::memory::host_thread_access;
  sim::memory::mark_copy_pending(reinterpret_cast<uintptr_t>(copy.dst), copy.bytes, false);
  local.counting_banks = false;
  if (read > 0) sim::memory::on_access(copy.src, read, Access::read, false, where);
  sim::memory::on_access(copy.dst, copy.bytes, Access::write, false, where);
  std::memcpy(copy.dst, copy.src, read);
  std::memset(static_cast<char*>(copy.dst) + read, 0, copy.zeros);
  local.counting_banks = true;
}

}  // namespace

void __pipeline_memcpy_async(void* dst_shared, const void* src_global, size_t size_and_align, size_t zfill,
                             std::source_location where) {
  sim::ThreadState* self = sim::current_thread();
  if (self == nullptr || !valid_copy(dst_shared, src_global, size_and_align, zfill, where)) return;
  sim::memory::check_copy_issue(reinterpret_cast<uintptr_t>(dst_shared), size_and_align,
                                sim::where_of(where));
  sim::memory::mark_copy_pending(reinterpret_cast<uintptr_t>(dst_shared), size_and_align, true);
  self->pending_copies.push_back({dst_shared, src_global, static_cast<unsigned>(size_and_align),
                                  static_cast<unsigned>(zfill), self->committed_batches, where});
}

void __pipeline_commit() {
  if (sim::ThreadState* self = sim::current_thread()) ++self->committed_batches;
}

void __pipeline_wait_prior(size_t prior) {
  sim::ThreadState* self = sim::current_thread();
  if (self == nullptr) return;
  auto& pending = self->pending_copies;
  // Batches numbered below this one have landed once the wait returns; uncommitted copies stay pending.
  const size_t landed_below = self->committed_batches > prior ? self->committed_batches - prior : 0;
  size_t kept = 0;
  for (const sim::PendingCopy& copy : pending) {
    if (copy.batch < landed_below)
      land(copy);
    else
      pending[kept++] = copy;
  }
  pending.resize(kept);
}
