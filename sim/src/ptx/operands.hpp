// The operands of one asm statement as its instructions name them: %n (the C++ operands,
// sim/include/sim/ptx.h), the statement's own registers (`.reg .pred p;`), numbers and the special registers
// of a cluster of one.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <string>

#include "ptx_syntax.hpp"
#include "sim/ptx.h"

namespace sim::ptx {

// The statement's own registers, for the duration of one execution of it.
using LocalRegisters = std::array<uint64_t, 8>;

class Bound {
 public:
  Bound(const Instruction& ins, std::initializer_list<Operand> operands, LocalRegisters& locals,
        std::source_location where)
      : ins_(ins), operands_(operands), locals_(locals), where_(where) {}

  // Reports `message` as a finding about this instruction and ends the block.
  [[noreturn]] void fail(const char* kind, const std::string& message) const;

  const Operand& operand(int index, const char* constraints, bool as_output) const;
  // Register i of `text` (an input %n, a statement register or a special register), or its number.
  uint64_t value(const OperandText& text, size_t i, const char* constraints) const;
  uint64_t value(const OperandText& text, const char* constraints) const {
    return value(text, 0, constraints);
  }
  // Coordinate i of a tensor address `[map, {c0, c1, ...}]`.
  uint64_t coordinate(const OperandText& text, size_t i) const { return read(text.coordinates.at(i), "rn"); }
  // Writes the low bytes of `bits` to register i of `text` (an output %n or a statement register); `_`
  // discards them.
  void write(const OperandText& text, size_t i, uint64_t bits) const;
  // A shared-memory address operand `[reg+offset]` as a 32-bit shared address.
  uint64_t address(const OperandText& text) const;

  const Instruction& instruction() const { return ins_; }
  std::source_location where() const { return where_; }

 private:
  uint64_t read(int reg, const char* constraints) const;

  const Instruction& ins_;
  std::initializer_list<Operand> operands_;
  LocalRegisters& locals_;
  std::source_location where_;
};

}  // namespace sim::ptx
