// Operand binding of inline PTX (ptx/operands.hpp).
#include "ptx/operands.hpp"

#include <algorithm>
#include <cstring>

#include "core/context.hpp"
#include "diagnostics/describe.hpp"

namespace sim::ptx {
namespace {

// A cluster of one block: the block is CTA 0 of its own cluster, and the clusters are the grid's blocks.
uint64_t special_value(SpecialRegister r) {
  const BlockState& block = *current_thread()->block;
  switch (r) {
    case SpecialRegister::cluster_ctarank:
    case SpecialRegister::cluster_ctaid_x:
    case SpecialRegister::cluster_ctaid_y:
    case SpecialRegister::cluster_ctaid_z:
      return 0;
    case SpecialRegister::cluster_nctarank:
    case SpecialRegister::cluster_nctaid_x:
    case SpecialRegister::cluster_nctaid_y:
    case SpecialRegister::cluster_nctaid_z:
      return 1;
    case SpecialRegister::clusterid_x:
      return block.block_idx.x;
    case SpecialRegister::clusterid_y:
      return block.block_idx.y;
    case SpecialRegister::clusterid_z:
      return block.block_idx.z;
    case SpecialRegister::nclusterid_x:
      return block.grid_dim.x;
    case SpecialRegister::nclusterid_y:
      return block.grid_dim.y;
    case SpecialRegister::nclusterid_z:
      return block.grid_dim.z;
    case SpecialRegister::none:
      break;
  }
  return 0;
}

}  // namespace

void Bound::fail(const char* kind, const std::string& message) const {
  report(Severity::error, kind, where_of(where_), "asm \"" + ins_.name + "\": " + message);
  stop_running_block();
}

const Operand& Bound::operand(int index, const char* constraints, bool as_output) const {
  if (index < 0 || static_cast<size_t>(index) >= operands_.size())
    fail("asm_operand_invalid", "%" + std::to_string(index) + " names no operand (the statement has " +
                                    std::to_string(operands_.size()) + ")");
  const Operand& o = operands_.begin()[index];
  // A loop, not strchr: this runs for every register an asm statement reads or writes, and the library
  // call on a one- or two-letter string was a twentieth of a tensor-core kernel's estimate.
  bool allowed = false;
  for (const char* c = constraints; *c && !allowed; ++c) allowed = *c == o.constraint;
  if (!allowed)
    fail("asm_operand_invalid", "%" + std::to_string(index) + " has constraint '" + o.constraint +
                                    "', this operand wants '" + constraints + "'");
  if (as_output ? o.output == nullptr : !o.readable)
    fail("asm_operand_invalid", "%" + std::to_string(index) +
                                    (as_output ? " must be an output (\"=" : " must be an input (\"") +
                                    constraints[0] + "\")");
  return o;
}

uint64_t Bound::value(const OperandText& text, size_t i, const char* constraints) const {
  if (text.immediate) return static_cast<uint64_t>(text.value);
  if (text.special != SpecialRegister::none) return special_value(text.special);
  return read(text.registers.at(i), constraints);
}

uint64_t Bound::read(int reg, const char* constraints) const {
  if (reg < 0) return locals_.at(static_cast<size_t>(-1 - reg));
  return operand(reg, constraints, false).value;
}

void Bound::write(const OperandText& text, size_t i, uint64_t bits) const {
  if (text.sink) return;
  const int reg = text.registers.at(i);
  if (reg < 0) {
    locals_.at(static_cast<size_t>(-1 - reg)) = bits;
    return;
  }
  const Operand& o = operand(reg, "rlfh", true);
  std::memcpy(o.output, &bits, std::min<size_t>(o.output_bytes, 8));
}

uint64_t Bound::address(const OperandText& text) const {
  return (value(text, "rl") + static_cast<uint64_t>(text.value)) & 0xFFFFFFFFu;
}

}  // namespace sim::ptx
