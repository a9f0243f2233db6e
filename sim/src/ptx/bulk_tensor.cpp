// cp.async.bulk.tensor (TMA) in tile mode. A load copies the box at the given coordinates of the map's
// tensor into shared memory, row after row of the box's innermost dimension (swizzled as the map says),
// elements outside the tensor filled with zeros (or NaN, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA),
// and then completes the box's full byte count on the mbarrier. A store writes the box's elements that lie
// inside the tensor. Both run when issued, through the memory checker: global bounds and traffic as loads
// and stores of the issuing thread (for the speed estimate, the copy engine's: memory/global_requests.hpp),
// shared memory as the async proxy (memory/async_proxy.hpp). A store's source stays an asynchronous read
// until the thread's cp.async.bulk.wait_group covers its group.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "memory/access.hpp"
#include "memory/async_proxy.hpp"
#include "memory/global_requests.hpp"
#include "ptx/async_block.hpp"
#include "ptx/hopper.hpp"
#include "ptx/tensor_map.hpp"

namespace sim::ptx {
namespace {

// A box of the map at given coordinates: its elements in shared-memory order.
struct Box {
  const TensorMap* map;
  int64_t start[5] = {};
  uint32_t count[5] = {1, 1, 1, 1, 1};  // elements per dimension (box / element stride, rounded up)
  uint32_t row_bytes = 0;               // one row of the innermost dimension
  uint32_t rows = 1;
  uint64_t bytes() const { return uint64_t{row_bytes} * rows; }
};

const TensorMap& map_of(const Bound& bound, const OperandText& tensor) {
  const auto* map = reinterpret_cast<const TensorMap*>(bound.value(tensor, "l"));
  if (!map || reinterpret_cast<uintptr_t>(map) % 64 != 0)
    bound.fail("bulk_copy_invalid",
               "the tensor map operand is not the address of a CUtensorMap (64-byte aligned)");
  if (map->magic != kTensorMapMagic)
    bound.fail(
        "bulk_copy_invalid",
        "the tensor map was not made by a successful cuTensorMapEncodeTiled (its arguments were refused, or "
        "it was never encoded)");
  return *map;
}

Box box_of(const Bound& bound, const OperandText& tensor) {
  const Instruction& ins = bound.instruction();
  Box box{&map_of(bound, tensor)};
  const TensorMap& map = *box.map;
  if (map.rank != ins.dimensions)
    bound.fail("bulk_copy_invalid", "a ." + std::to_string(ins.dimensions) +
                                        "d copy with a tensor map of rank " + std::to_string(map.rank) +
                                        ": the instruction's dimensions must be the map's");
  if (map.interleave != 0)
    bound.fail("asm_not_modelled", "tensor maps with an interleaved layout are not modelled");
  for (int d = 0; d < map.rank; ++d) {
    box.start[d] = static_cast<int32_t>(bound.coordinate(tensor, d) & 0xFFFFFFFF);  // coordinates are s32
    // The innermost dimension takes no element stride (CUDA's documentation of cuTensorMapEncodeTiled).
    const uint32_t stride = d == 0 ? 1 : map.element_strides[d];
    box.count[d] = (map.box[d] + stride - 1) / stride;
    if (d > 0) box.rows *= box.count[d];
  }
  box.row_bytes = box.count[0] * map.element_bytes;
  return box;
}

// Row r of the box: its global coordinates of dimensions 1..rank-1, and whether they are in the tensor.
bool row_coordinates(const Box& box, uint32_t r, int64_t (&coordinate)[5]) {
  const TensorMap& map = *box.map;
  bool inside = true;
  for (int d = 1; d < map.rank; ++d) {
    coordinate[d] = box.start[d] + int64_t{r % box.count[d]} * map.element_strides[d];
    r /= box.count[d];
    inside = inside && coordinate[d] >= 0 && coordinate[d] < static_cast<int64_t>(map.dims[d]);
  }
  return inside;
}

uint64_t row_address(const TensorMap& map, const int64_t (&coordinate)[5]) {
  uint64_t address = map.address;
  for (int d = 1; d < map.rank; ++d) address += static_cast<uint64_t>(coordinate[d]) * map.strides[d - 1];
  return address;
}

// The elements [first, last) of the innermost dimension inside the tensor, for a row inside it.
void inner_span(const Box& box, uint32_t& first, uint32_t& last) {
  const int64_t lo = box.start[0], dim = static_cast<int64_t>(box.map->dims[0]);
  first = static_cast<uint32_t>(std::clamp<int64_t>(-lo, 0, box.count[0]));
  last = static_cast<uint32_t>(std::clamp<int64_t>(dim - lo, first, box.count[0]));
}

bool floating(uint8_t data_type) {
  return data_type >= 6 && data_type <= 12;  // FLOAT16 .. TFLOAT32_FTZ
}

void fill_out_of_bounds(const TensorMap& map, uint8_t* out, uint32_t elements) {
  if (map.oob_fill == 0 || !floating(map.data_type)) {
    std::memset(out, 0, size_t{elements} * map.element_bytes);
    return;
  }
  for (uint32_t e = 0; e < elements; ++e) {  // a quiet NaN of the element's width
    const uint64_t nan = map.element_bytes == 2   ? 0x7FFF
                         : map.element_bytes == 4 ? 0x7FFFFFFF
                                                  : 0x7FFFFFFFFFFFFFFF;
    std::memcpy(out + size_t{e} * map.element_bytes, &nan, map.element_bytes);
  }
}

// The box's destination or source in shared memory: aligned, inside, and where each 16-byte chunk goes.
void check_shared_box(const Bound& bound, uint64_t shared, const Box& box) {
  if (shared % 128 != 0)
    bound.fail("bulk_copy_invalid",
               "the shared-memory address of a bulk tensor copy must be a multiple of 128 bytes, not " +
                   std::to_string(shared));
  if (!memory::shared_span_valid(shared, box.bytes()))
    bound.fail("bulk_copy_invalid", "the box (" + std::to_string(box.bytes()) + " bytes) at shared address " +
                                        std::to_string(shared) +
                                        " does not fit in this block's shared memory");
}

std::string issue_words(const Bound& bound) {
  return "the cp.async.bulk.tensor issued at " + describe_site(bound.where());
}

void warn_if_outside(const Bound& bound, const Box& box) {
  int64_t coordinate[5] = {};
  uint32_t first = 0, last = 0;
  inner_span(box, first, last);
  for (uint32_t r = 0; r < box.rows; ++r)
    if (row_coordinates(box, r, coordinate) && first < last) return;
  const Where at = where_of(bound.where());
  if (count_repeat("bulk_copy_box_outside", at)) return;
  std::string coordinates;
  for (int d = 0; d < box.map->rank; ++d) coordinates += (d ? ", " : "") + std::to_string(box.start[d]);
  report(Severity::warning, "bulk_copy_box_outside", at,
         bound.instruction().name + ": the box at coordinates (" + coordinates +
             ") lies wholly outside the tensor: every element is the fill value. Coordinates are innermost "
             "first: (column, row) for a row-major matrix");
}

}  // namespace

void run_bulk_tensor_load(const Bound& bound) {
  const Instruction& ins = bound.instruction();
  const uint64_t shared = bound.address(ins.operands[0]);
  const Box box = box_of(bound, ins.operands[1]);
  const uint64_t barrier = bound.address(ins.operands[2]);
  if (ins.multicast && (bound.value(ins.operands[3], "hrn") & 0xFFFF) != 1)
    bound.fail("asm_not_modelled",
               "a multicast to other blocks of a cluster: clusters of more than one block are "
               "not modelled (a mask of 1, this block alone, is)");
  const TensorMap& map = *box.map;
  check_shared_box(bound, shared, box);
  warn_if_outside(bound, box);
  const unsigned span = swizzle_span_bytes(map.swizzle);
  const uint32_t copy = memory::next_bulk_copy_serial();
  const Where at = where_of(bound.where());
  const std::string writer = issue_words(bound);
  std::vector<uint8_t> row(box.row_bytes);
  int64_t coordinate[5] = {};
  for (uint32_t r = 0; r < box.rows; ++r) {
    uint32_t first = 0, last = 0;
    inner_span(box, first, last);
    if (!row_coordinates(box, r, coordinate)) first = last = 0;
    fill_out_of_bounds(map, row.data(), first);
    fill_out_of_bounds(map, row.data() + size_t{last} * map.element_bytes, box.count[0] - last);
    if (last > first) {
      const auto* source = reinterpret_cast<const uint8_t*>(row_address(map, coordinate) +
                                                            (box.start[0] + first) * map.element_bytes);
      if (!memory::device_heap.contains(reinterpret_cast<uintptr_t>(source)))
        bound.fail("bulk_copy_invalid",
                   "the tensor map's global address is not device memory from cudaMalloc");
      const size_t bytes = size_t{last - first} * map.element_bytes;
      memory::host_thread_access.counting_global = false;
      memory::on_access(source, bytes, memory::Access::read, false, at);
      memory::host_thread_access.counting_global = true;
      memory::count_bulk_row(reinterpret_cast<uintptr_t>(source), bytes, false);
      std::memcpy(row.data() + size_t{first} * map.element_bytes, source, bytes);
    }
    for (uint32_t chunk = 0; chunk < box.row_bytes / 16; ++chunk) {
      const auto logical = static_cast<uint32_t>(shared + uint64_t{r} * box.row_bytes + chunk * 16);
      const uint32_t physical = swizzled(logical, span);
      memory::async_proxy_write(physical, row.data() + chunk * 16, 16, writer, at);
      memory::tag_chunk(physical, {copy, static_cast<uint16_t>(r), static_cast<uint8_t>(chunk), map.swizzle});
    }
  }
  memory::count_bulk_copy(false);
  complete_transaction(bound, barrier, static_cast<uint32_t>(box.bytes()));
}

void run_bulk_tensor_store(const Bound& bound) {
  const Instruction& ins = bound.instruction();
  const Box box = box_of(bound, ins.operands[0]);
  const uint64_t shared = bound.address(ins.operands[1]);
  const TensorMap& map = *box.map;
  check_shared_box(bound, shared, box);
  const unsigned span = swizzle_span_bytes(map.swizzle);
  const Where at = where_of(bound.where());
  const std::string reader = issue_words(bound);
  memory::SharedSpans spans;
  std::vector<uint8_t> row(box.row_bytes);
  int64_t coordinate[5] = {};
  const auto* arena = reinterpret_cast<const uint8_t*>(memory::host_thread_access.shared_lo);
  for (uint32_t r = 0; r < box.rows; ++r) {
    for (uint32_t chunk = 0; chunk < box.row_bytes / 16; ++chunk) {
      const uint32_t physical =
          swizzled(static_cast<uint32_t>(shared + uint64_t{r} * box.row_bytes + chunk * 16), span);
      memory::async_proxy_read(physical, 16, reader, at);
      std::memcpy(row.data() + chunk * 16, arena + physical, 16);
      spans.emplace_back(physical, physical + 16);
    }
    uint32_t first = 0, last = 0;
    inner_span(box, first, last);
    if (!row_coordinates(box, r, coordinate) || last <= first) continue;
    auto* target =
        reinterpret_cast<uint8_t*>(row_address(map, coordinate) + (box.start[0] + first) * map.element_bytes);
    if (!memory::device_heap.contains(reinterpret_cast<uintptr_t>(target)))
      bound.fail("bulk_copy_invalid", "the tensor map's global address is not device memory from cudaMalloc");
    const size_t bytes = size_t{last - first} * map.element_bytes;
    memory::host_thread_access.counting_global = false;
    memory::on_access(target, bytes, memory::Access::write, false, at);
    memory::host_thread_access.counting_global = true;
    memory::count_bulk_row(reinterpret_cast<uintptr_t>(target), bytes, true);
    std::memcpy(target, row.data() + size_t{first} * map.element_bytes, bytes);
  }
  memory::count_bulk_copy(true);
  ThreadAsync& self = thread_async(*current_thread());
  self.bulk_stores.push_back(
      {self.bulk_committed, memory::begin_async_read(spans, reader + " (not yet waited for)")});
}

void run_bulk_commit() {
  ++thread_async(*current_thread()).bulk_committed;
}

void run_bulk_wait(const Bound& bound) {
  ThreadAsync& self = thread_async(*current_thread());
  const uint64_t allowed = bound.value(bound.instruction().operands[0], "n");
  const uint64_t done_below = self.bulk_committed > allowed ? self.bulk_committed - allowed : 0;
  std::erase_if(self.bulk_stores, [&](const PendingBulkStore& store) {
    if (store.group >= done_below) return false;
    memory::end_async_read(store.read);
    return true;
  });
}

}  // namespace sim::ptx
