// Shared memory as Hopper's async proxy touches it: the bulk tensor copies (TMA) and wgmma read and write
// it beside the threads, not as a thread's instructions. Their accesses are checked for bounds and
// initialization but are no thread's in the race and bank records; what the PTX memory model asks of the
// threads around them is checked instead:
//   - a store of a thread is read by the async proxy only after a fence.proxy.async (`async_proxy_unfenced`);
//   - nothing writes bytes an asynchronous read still reads, whether a wgmma operand or a bulk store's
//     source (`wgmma_operand_overwritten`): the reader's group has not been waited for.
// Offsets are in the running block's shared memory (what __cvta_generic_to_shared gives).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "diagnostics/report.hpp"
#include "memory/shared.hpp"

namespace sim::memory {

using SharedSpans = std::vector<std::pair<uint32_t, uint32_t>>;  // [offset, offset + bytes)

// Whether [offset, offset + bytes) lies in the running block's shared memory (all of it addressable).
bool shared_span_valid(size_t offset, size_t bytes);

// A read by the async proxy on behalf of the running thread: uninitialized bytes (a warning) and bytes
// stored without a fence.proxy.async since (an error naming `reader`). False, reporting nothing, if the
// span is not valid (the caller reports that in its own words).
bool async_proxy_read(size_t offset, size_t bytes, const std::string& reader, const Where& where);
// A bulk tensor copy landing `bytes` of `data` at `offset`: bytes an asynchronous read still reads are
// reported (`writer` names the copy); the bytes become initialized, with no race history (the mbarrier
// orders them). The caller has checked the span.
void async_proxy_write(size_t offset, const void* data, size_t bytes, const std::string& writer,
                       const Where& where);

// An asynchronous read in flight: its bytes stay kAsyncRead until end_async_read(id).
uint64_t begin_async_read(const SharedSpans& spans, std::string reader);
void end_async_read(uint64_t id);

// fence.proxy.async by a thread of the block: every store so far is ordered before the async proxy. (The
// PTX memory model asks each storing thread to fence; any thread's fence is taken as all of them'.)
void fence_async_proxy();

// How bulk copies wrote the 16-byte chunks of shared memory (memory/shared.hpp, ChunkTag).
uint32_t next_bulk_copy_serial();
void tag_chunk(size_t offset, ChunkTag tag);
// The chunk's tag, or one with copy 0 when no bulk copy of this block wrote it.
ChunkTag chunk_tag(size_t offset);

// "dynamic_shared[4096]", "__shared__ tile[12]": the element at `offset` (memory/shared_access.cpp).
std::string shared_element(const SharedBlock& block, size_t offset, size_t bytes);

// Shared-access hooks (memory/shared_access.cpp).
void note_unfenced(SharedBlock& block, size_t offset, size_t bytes);
[[gnu::cold, gnu::noinline]] void report_async_read_overwritten(SharedBlock& block, size_t offset,
                                                                size_t bytes, const std::string& writer,
                                                                const Where& where);

}  // namespace sim::memory
