#include "ptx/warp_matrix.hpp"

#include <bit>
#include <string>
#include <vector>

#include "core/work_counters.hpp"
#include "diagnostics/describe.hpp"
#include "execution/block_runner.hpp"
#include "ptx/mma_sum.hpp"
#include "sim/float16.h"
#include "sim/mma_model.h"

namespace sim {
namespace {

constexpr uint32_t kPoison = 0x7FFFFFFF;  // what a lane gets from a misused instruction: NaN

WarpMatrixCall& call_of(const SimThread& t) {
  return *reinterpret_cast<WarpMatrixCall*>(t.call.value);
}

// Element `half` (0: low 16 bits) of a 16-bit fragment register, exactly.
double element(uint32_t reg, int half, ptx::OperandType type) {
  const auto bits = static_cast<uint16_t>(half ? reg >> 16 : reg & 0xFFFF);
  return type == ptx::OperandType::f16 ? f16::decode<5, 10>(bits) : f16::decode<8, 7>(bits);
}

// A tf32 register's value: a float's sign, exponent and top 10 significand bits; the tensor core ignores
// the low 13 (so a plain float passed as tf32 is truncated toward zero).
double tf32_element(uint32_t reg) {
  return std::bit_cast<float>(reg & 0xFFFFE000u);
}

// D = A * B + C for m16n8k16 / m16n8k8. Lane l holds, with g = l / 4 and t = l % 4 (PTX ISA, "Matrix
// Fragments for mma.m16n8k16 with floating point type" and the m16n8k8 sections):
//   16-bit A register r (k16): row g + 8 * (r % 2), columns 2t, 2t + 1 (+ 8 for r >= 2); k8: row g + 8r.
//   16-bit B register r: rows (k) 2t, 2t + 1 (+ 8 for r = 1), column (n) g.
//   tf32 (k8), one element a register: A register r at row g + 8 * (r % 2), column t + 4 * (r / 2);
//   B register r at row t + 4r, column g.
//   C and D element i: row g + 8 * (i / 2), column 2t + i % 2.
void compute_mma(SimThread* lanes, const ptx::Instruction& ins) {
  double a[16][16], b[16][8];
  float c[16][8];
  const bool tf32 = ins.a_type == ptx::OperandType::tf32;
  for (int lane = 0; lane < 32; ++lane) {
    const WarpMatrixCall& call = call_of(lanes[lane]);
    const int g = lane / 4, t = lane % 4;
    if (tf32) {
      for (int r = 0; r < 4; ++r) a[g + 8 * (r % 2)][t + 4 * (r / 2)] = tf32_element(call.a[r]);
      for (int r = 0; r < 2; ++r) b[t + 4 * r][g] = tf32_element(call.b[r]);
    } else {
      for (int r = 0; r < ins.k / 4; ++r) {
        const int row = g + 8 * (ins.k == 16 ? r % 2 : r), col = 2 * t + (ins.k == 16 ? 8 * (r / 2) : 0);
        a[row][col] = element(call.a[r], 0, ins.a_type);
        a[row][col + 1] = element(call.a[r], 1, ins.a_type);
      }
      for (int r = 0; r < ins.k / 8; ++r) {
        b[2 * t + 8 * r][g] = element(call.b[r], 0, ins.b_type);
        b[2 * t + 8 * r + 1][g] = element(call.b[r], 1, ins.b_type);
      }
    }
    for (int i = 0; i < 4; ++i) c[g + 8 * (i / 2)][2 * t + i % 2] = call.c[i];
  }
  const int min_exponent =
      ins.a_type == ptx::OperandType::f16 ? mma::kF16MinExponent : mma::kFloatMinExponent;
  // B by column, and every operand's alignment exponent, once for the 128 elements.
  double columns[8][16];
  int a_exponents[16][16], b_exponents[8][16];
  for (int k = 0; k < ins.k; ++k) {
    for (int row = 0; row < 16; ++row) a_exponents[row][k] = mma::exponent_of(a[row][k], min_exponent);
    for (int col = 0; col < 8; ++col) {
      columns[col][k] = b[k][col];
      b_exponents[col][k] = mma::exponent_of(b[k][col], min_exponent);
    }
  }
  for (int lane = 0; lane < 32; ++lane) {
    WarpMatrixCall& call = call_of(lanes[lane]);
    const int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      const int row = g + 8 * (i / 2), col = 2 * t + i % 2;
      call.out[i] =
          std::bit_cast<uint32_t>(ptx::mma_sum(c[row][col], a[row], columns[col], ins.k, mma::kDeviceModel,
                                               min_exponent, a_exponents[row], b_exponents[col]));
    }
  }
}

// ldmatrix: lane 8j + r supplied row r of matrix j. Without .trans, lane l receives row l / 4, elements
// 2(l % 4) and 2(l % 4) + 1; with .trans, column l / 4, rows 2(l % 4) and 2(l % 4) + 1.
void compute_ldmatrix(SimThread* lanes, const ptx::Instruction& ins) {
  for (int j = 0; j < ins.matrices; ++j) {
    uint16_t m[8][8];
    for (int r = 0; r < 8; ++r) {
      const WarpMatrixCall& source = call_of(lanes[8 * j + r]);
      for (int e = 0; e < 8; ++e) m[r][e] = static_cast<uint16_t>(source.row[e / 2] >> (16 * (e % 2)));
    }
    for (int lane = 0; lane < 32; ++lane) {
      const int q = lane / 4, p = 2 * (lane % 4);
      const uint16_t low = ins.trans ? m[p][q] : m[q][p], high = ins.trans ? m[p + 1][q] : m[q][p + 1];
      call_of(lanes[lane]).out[j] = uint32_t{high} << 16 | low;
    }
  }
}

std::string lane_list(uint32_t lanes) {
  std::string text;
  for (uint32_t rest = lanes; rest != 0;) {
    const int first = std::countr_zero(rest);
    int last = first;
    while (last < 31 && (rest >> (last + 1) & 1)) ++last;
    if (!text.empty()) text += ", ";
    text += std::to_string(first) + (last > first ? "-" + std::to_string(last) : "");
    rest &= last == 31 ? 0 : ~0u << (last + 1);
  }
  return text;
}

void poison_all(SimThread* lanes, uint32_t group) {
  for (uint32_t g = group; g != 0; g &= g - 1)
    for (uint32_t& out : call_of(lanes[std::countr_zero(g)]).out) out = kPoison;
}

// Once the lanes in `group` all wait at it: every lane's result.
void complete_warp_matrix(SimThread* lanes, uint32_t group, const BlockState& block) {
  const SimThread& first = lanes[std::countr_zero(group)];
  const WarpMatrixCall& call = call_of(first);
  // Described only for a report: formatting it for every mma took more time than the mma's arithmetic.
  const auto warp = [&] { return "warp " + std::to_string(first.warp) + " of " + describe_block(block); };
  uint32_t elsewhere = 0;  // lanes at another mma/ldmatrix
  for (uint32_t g = group; g != 0; g &= g - 1) {
    const WarpMatrixCall& other = call_of(lanes[std::countr_zero(g)]);
    if (other.instruction != call.instruction || !same_site(other.where, call.where)) elsewhere |= g & -g;
  }
  if (elsewhere != 0) {
    const WarpMatrixCall& other = call_of(lanes[std::countr_zero(elsewhere)]);
    report_as(
        first, Severity::error, "warp_divergent_collective", call.where,
        warp() + ": lanes " + lane_list(group & ~elsewhere) + " execute " + call.instruction->name + " (" +
            describe_site(call.where) + ") while lanes " + lane_list(elsewhere) + " execute " +
            other.instruction->name + " (" + describe_site(other.where) +
            "). A .aligned instruction must be executed by every lane of the warp, the same instruction "
            "at the same time; the results are undefined.");
    return poison_all(lanes, group);
  }
  if (group != ~0u) {
    const uint32_t missing = ~group;
    const dim3& d = block.block_dim;
    const unsigned past_end =
        first.warp * 32 + 32 > d.x * d.y * d.z ? first.warp * 32 + 32 - d.x * d.y * d.z : 0;
    report_as(
        first, Severity::error, "warp_aligned_missing_lane", call.where,
        warp() + ": " + call.instruction->name + " is executed by lanes " + lane_list(group) +
            " only; lanes " + lane_list(missing) +
            (past_end ? " do not exist (the block's thread count is not a multiple of 32)"
                      : " exited or took another branch") +
            ". mma.sync and ldmatrix.sync.aligned must be executed by all 32 lanes of the warp together, "
            "with the same operands shape; the results are undefined.");
    return poison_all(lanes, group);
  }
  if (call.instruction->opcode == ptx::Opcode::mma)
    compute_mma(lanes, *call.instruction);
  else
    compute_ldmatrix(lanes, *call.instruction);
}

}  // namespace

void run_warp_matrix(WarpMatrixCall& call) {
  SimThread& self = calling_thread(call.instruction->name.c_str());
  if (const ptx::Instruction& ins = *call.instruction; ins.opcode == ptx::Opcode::mma) {
    const bool tf32 = ins.a_type == ptx::OperandType::tf32;  // half the 16-bit rate
    work::count_tensor_op(uint64_t{2} * ins.m * ins.n * ins.k * (tf32 ? 2 : 1));
  }
  const CollectiveCall collective{
      CollectiveOp::warp_matrix, 0xffffffffu, reinterpret_cast<uint64_t>(&call), 0, 0, &complete_warp_matrix};
  BlockRunner::for_this_thread().collective(self, collective, call.where);
}

}  // namespace sim
