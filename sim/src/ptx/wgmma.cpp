// wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}: a collective of the warp group's 128 threads
// (execution/warpgroup.cpp). Once all have arrived, D = A * B (+ D when scale-d) is computed for the whole
// group: A (64 x 16) from shared memory through its descriptor or from the threads' registers, B (16 x N)
// through its descriptor (ptx/matrix_descriptor.hpp), each element of D summed as the tensor core sums an
// mma's k16 (sim/mma_model.h, kWgmmaModel). The results are the threads' only when their
// wgmma.wait_group covers the instruction's group (ptx/wgmma_results.cpp); until then the operands'
// shared memory stays an asynchronous read that nothing may overwrite.
//
// Register layouts (PTX ISA, "Register Fragments and Shared Memory Matrix Layouts" of wgmma), thread t of
// the warp group, w = t / 32, g = t % 32 / 4, q = t % 4:
//   D: d[4j + i] = (16w + g + 8 (i / 2), 8j + 2q + i % 2), j < N / 8
//   A in registers: a[r] holds (16w + g + 8 (r % 2), 2q + 8 (r / 2)) and the next column
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "core/work_counters.hpp"
#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "execution/block_runner.hpp"
#include "memory/access.hpp"
#include "memory/async_proxy.hpp"
#include "ptx/async_block.hpp"
#include "ptx/hopper.hpp"
#include "ptx/matrix_descriptor.hpp"
#include "ptx/mma_sum.hpp"
#include "ptx/tensor_map.hpp"
#include "ptx/wgmma_results.hpp"
#include "sim/float16.h"
#include "sim/mma_model.h"

namespace sim::ptx {
namespace {

struct WgmmaCall {
  const Bound* bound;
  uint64_t a_desc = 0, b_desc = 0;
  uint32_t a[4] = {};
  uint64_t scale_d = 1, scale_a = 1, scale_b = 1, trans_a = 0, trans_b = 0;
};

WgmmaCall& call_of(const SimThread& t) {
  return *reinterpret_cast<WgmmaCall*>(t.call.value);
}

double element(uint16_t bits, OperandType type) {
  return type == OperandType::f16 ? f16::decode<5, 10>(bits) : f16::decode<8, 7>(bits);
}

// What every thread must agree on; the first operand that differs, or nullptr.
const char* disagreement(const WgmmaCall& first, const WgmmaCall& other) {
  if (other.a_desc != first.a_desc) return "the A descriptor";
  if (other.b_desc != first.b_desc) return "the B descriptor";
  if ((other.scale_d != 0) != (first.scale_d != 0)) return "scale-d";
  return nullptr;
}

// An operand read through its descriptor: the chunks it reads, and its elements.
struct SharedOperand {
  MatrixDescriptor descriptor;
  bool mn_major;
  int rows;
  std::vector<uint32_t> chunks;  // 16-byte chunks read, in (row, k chunk) order for K-major
};

[[noreturn]] void invalid(const Bound& bound, const std::string& message) {
  bound.fail("wgmma_descriptor_invalid", message);
}

SharedOperand shared_operand(const Bound& bound, char name, uint64_t bits, uint64_t trans, int rows) {
  SharedOperand op{decode_descriptor(bits), trans != 0, rows, {}};
  if (op.descriptor.base_offset != 0)
    bound.fail("asm_not_modelled",
               std::string("the ") + name +
                   " descriptor's matrix base offset is not 0: the simulator models tiles whose "
                   "swizzle pattern starts at a multiple of 8 swizzle rows (base offset 0)");
  for (int row = 0; row < rows; ++row)
    for (int k = 0; k < 16; k += 8)
      op.chunks.push_back(element_address(op.descriptor, row, k, op.mn_major) & ~15u);
  const auto& local = memory::host_thread_access;
  for (size_t i = 0; i < op.chunks.size(); ++i) {
    if (op.chunks[i] + 16 <= local.shared_size) continue;
    const MatrixDescriptor& d = op.descriptor;
    invalid(bound, std::string("the ") + name + " descriptor (start " + std::to_string(d.start) + ", LBO " +
                       std::to_string(d.leading) + ", SBO " + std::to_string(d.stride) + ", " +
                       layout_words(d.layout) + (op.mn_major ? ", MN-major" : ", K-major") + ") puts row " +
                       std::to_string(i / 2) + " at shared address " + std::to_string(op.chunks[i]) +
                       ", outside this block's shared memory");
  }
  return op;
}

// The rows of a K-major operand that bulk copies wrote must be read as they were written: row r of the
// operand is row r of the box (from the first), and its two chunks are consecutive columns of it.
void check_layout(const Bound& bound, char name, const SharedOperand& op) {
  if (op.mn_major) return;
  const memory::ChunkTag first = memory::chunk_tag(op.chunks[0]);
  if (first.copy == 0) return;
  for (size_t i = 0; i < op.chunks.size(); ++i) {
    const memory::ChunkTag tag = memory::chunk_tag(op.chunks[i]);
    const int row = static_cast<int>(i / 2), chunk = static_cast<int>(i % 2);
    if (tag.copy == 0) return;  // a part not written by a bulk copy: nothing to hold it to
    if (tag.row == first.row + row && tag.column == first.column + chunk && tag.copy == first.copy) continue;
    const Where at = where_of(bound.where());
    if (count_repeat("wgmma_layout_mismatch", at)) return;
    const MatrixDescriptor& d = op.descriptor;
    const unsigned span = swizzle_span_bytes(tag.swizzle);
    std::string why = tag.swizzle != (d.layout == 0 ? 0u : 4 - d.layout)
                          ? std::string("the tensor map wrote the tile with ") +
                                (span ? std::to_string(span) + "-byte swizzle" : std::string("no swizzle")) +
                                " and the descriptor reads it with " + layout_words(d.layout)
                          : "the descriptor's strides (LBO " + std::to_string(d.leading) + ", SBO " +
                                std::to_string(d.stride) + " bytes) do not match the tile's rows";
    report(
        Severity::error, "wgmma_layout_mismatch", at,
        bound.instruction().name + ": the " + name + " descriptor reads as its row " + std::to_string(row) +
            ", k " + std::to_string(8 * chunk) + "-" + std::to_string(8 * chunk + 7) +
            " the 16 bytes that the bulk copy wrote as row " + std::to_string(tag.row) + ", bytes " +
            std::to_string(16 * tag.column) + "-" + std::to_string(16 * tag.column + 15) +
            " of its box (row 0 of the operand is box row " + std::to_string(first.row) + ", bytes " +
            std::to_string(16 * first.column) + "-" + std::to_string(16 * first.column + 15) + "): " + why +
            ". The descriptor's layout must be the tensor map's swizzle, and its SBO the distance of 8 rows");
    return;
  }
}

// The operand's 16-bit elements, [row][k], through the async proxy's checks.
std::vector<double> gather(const Bound& bound, const SharedOperand& op, OperandType type,
                           const std::string& reader) {
  const Where at = where_of(bound.where());
  for (uint32_t chunk : op.chunks) memory::async_proxy_read(chunk, 16, reader, at);
  const auto* arena = reinterpret_cast<const uint8_t*>(memory::host_thread_access.shared_lo);
  std::vector<double> values(static_cast<size_t>(op.rows) * 16);
  for (int row = 0; row < op.rows; ++row)
    for (int k = 0; k < 16; ++k) {
      uint16_t bits;
      std::memcpy(&bits, arena + element_address(op.descriptor, row, k, op.mn_major), 2);
      values[static_cast<size_t>(row) * 16 + k] = element(bits, type);
    }
  return values;
}

// A from the threads' registers: [row][k].
std::vector<double> registers_a(SimThread* threads, OperandType type) {
  std::vector<double> values(64 * 16);
  for (int t = 0; t < 128; ++t) {
    const WgmmaCall& call = call_of(threads[t]);
    const int w = t / 32, g = t % 32 / 4, q = t % 4;
    for (int r = 0; r < 4; ++r) {
      const int row = 16 * w + g + 8 * (r % 2), col = 2 * q + 8 * (r / 2);
      values[row * 16 + col] = element(static_cast<uint16_t>(call.a[r]), type);
      values[row * 16 + col + 1] = element(static_cast<uint16_t>(call.a[r] >> 16), type);
    }
  }
  return values;
}

void poison(SimThread* threads) {
  for (int t = 0; t < 128; ++t) {
    const WgmmaCall& call = call_of(threads[t]);
    const OperandText& d = call.bound->instruction().operands[0];
    for (size_t i = 0; i < d.registers.size(); ++i) call.bound->write(d, i, 0x7FFFFFFF);
  }
}

void complete_wgmma(SimThread* threads, uint32_t, const BlockState&) {
  const WgmmaCall& first = call_of(threads[0]);
  const Bound& bound = *first.bound;
  const Instruction& ins = bound.instruction();
  for (int t = 1; t < 128; ++t) {
    if (const char* what = disagreement(first, call_of(threads[t]))) {
      report_as(
          threads[t], Severity::error, "wgmma_operand_invalid", bound.where(),
          ins.name + ": thread " + std::to_string(threads[t].linear) + " gives another " + what +
              " than thread " + std::to_string(threads[0].linear) +
              ": the descriptors and scale-d of a wgmma must be the same in all 128 threads of the warp "
              "group; the results are undefined");
      return poison(threads);
    }
  }
  for (uint64_t scale : {first.scale_a, first.scale_b})
    if (scale != 1 && scale != ~uint64_t{0} && static_cast<int64_t>(scale) != -1)
      bound.fail("wgmma_operand_invalid", "imm-scale-a and imm-scale-b are 1 or -1");
  const unsigned group = threads[0].warp / 4;
  const std::string reader = "the wgmma.mma_async issued at " + describe_site(bound.where()) +
                             " by warp group " + std::to_string(group);
  std::vector<double> a;
  memory::SharedSpans spans;
  if (ins.a_in_registers) {
    a = registers_a(threads, ins.a_type);
  } else {
    const SharedOperand op = shared_operand(bound, 'A', first.a_desc, first.trans_a, 64);
    check_layout(bound, 'A', op);
    a = gather(bound, op, ins.a_type, reader);
    for (uint32_t chunk : op.chunks) spans.emplace_back(chunk, chunk + 16);
  }
  const SharedOperand b_op = shared_operand(bound, 'B', first.b_desc, first.trans_b, ins.n);
  check_layout(bound, 'B', b_op);
  std::vector<double> b = gather(bound, b_op, ins.b_type, reader);
  for (uint32_t chunk : b_op.chunks) spans.emplace_back(chunk, chunk + 16);
  if (static_cast<int64_t>(first.scale_a) == -1)
    for (double& x : a) x = -x;
  if (static_cast<int64_t>(first.scale_b) == -1)
    for (double& x : b) x = -x;
  const uint64_t read = memory::begin_async_read(spans, reader);
  const int min_exponent = ins.a_type == OperandType::f16 ? mma::kF16MinExponent : mma::kFloatMinExponent;
  // Every operand's alignment exponent once, not once per element that uses it (n / 8 and 64 times).
  std::vector<int> a_exponents(a.size()), b_exponents(b.size());
  for (size_t i = 0; i < a.size(); ++i) a_exponents[i] = mma::exponent_of(a[i], min_exponent);
  for (size_t i = 0; i < b.size(); ++i) b_exponents[i] = mma::exponent_of(b[i], min_exponent);
  for (int t = 0; t < 128; ++t) {
    const WgmmaCall& call = call_of(threads[t]);
    const OperandText& d = ins.operands[0];
    PendingWgmma pending{0, {}, {}, read, bound.where()};
    const int w = t / 32, g = t % 32 / 4, q = t % 4;
    for (int j = 0; j < ins.n / 8; ++j)
      for (int i = 0; i < 4; ++i) {
        const int row = 16 * w + g + 8 * (i / 2), col = 8 * j + 2 * q + i % 2;
        const Operand& reg = call.bound->operand(d.registers.at(4 * j + i), "f", true);
        auto* target = static_cast<float*>(reg.output);
        const float before = call.scale_d
                                 ? accumulator_input(threads[t], target, pending.registers.size(),
                                                     std::bit_cast<float>(static_cast<uint32_t>(reg.value)))
                                 : 0.0f;
        pending.registers.push_back(target);
        pending.results.push_back(mma_sum(before, &a[row * 16], &b[col * 16], 16, mma::kWgmmaModel,
                                          min_exponent, &a_exponents[row * 16], &b_exponents[col * 16]));
      }
    record_pending(threads[t], std::move(pending));
  }
}

}  // namespace

void run_wgmma(const Bound& bound) {
  const Instruction& ins = bound.instruction();
  SimThread& self = calling_thread(ins.name.c_str());
  WgmmaCall call{&bound};
  const auto& ops = ins.operands;
  size_t next = 2;
  if (ins.a_in_registers) {
    for (size_t r = 0; r < 4; ++r) call.a[r] = static_cast<uint32_t>(bound.value(ops[1], r, "r"));
  } else {
    call.a_desc = bound.value(ops[1], "l");
  }
  call.b_desc = bound.value(ops[next++], "l");
  call.scale_d = bound.value(ops[next++], "rn") != 0;
  call.scale_a = bound.value(ops[next++], "n");
  call.scale_b = bound.value(ops[next++], "n");
  if (!ins.a_in_registers) call.trans_a = bound.value(ops[next++], "n");
  call.trans_b = bound.value(ops[next++], "n");
  // The warp's quarter of the group's m64nNk16 (a warp's count is the most any of its lanes did).
  work::count_tensor_op(uint64_t{2} * 64 * ins.n * 16 / 4, true);
  const CollectiveCall collective{CollectiveOp::warpgroup, ~0u, reinterpret_cast<uint64_t>(&call), 0, 0,
                                  &complete_wgmma};
  BlockRunner::for_this_thread().warpgroup_collective(self, collective, bound.where());
}

}  // namespace sim::ptx
