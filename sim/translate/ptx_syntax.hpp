// The inline PTX the simulator models, parsed from an asm statement's template: the translator
// rejects any other instruction when it translates the file, and the runtime executes these.
//   mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32  d{4}, a{4}, b{2}, c{4}
//   mma.sync.aligned.m16n8k8.row.col.f32.{f16,bf16}.{f16,bf16}.f32   d{4}, a{2}, b{1}, c{4}
//   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32               d{4}, a{4}, b{2}, c{4}
//   ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared[::cta].b16  d{1,2,4}, [row address]
//   cp.async.{ca,cg}.shared[::cta].global[.L2::{64,128,256}B]        [dst], [src], size[, src size]
//   cp.async.commit_group;  cp.async.wait_group N;  cp.async.wait_all
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sim::ptx {

enum class Opcode { mma, ldmatrix, cp_async, commit_group, wait_group, wait_all };
enum class OperandType { f16, bf16, tf32 };  // of an mma's A and B

// One operand as written: `%3`, a vector `{%0, %1}`, an address `[%2]` or `[%2+16]`, or a number.
struct OperandText {
  std::vector<int> registers;  // the %n it names, in order
  bool address = false;
  bool immediate = false;  // a number written in the template (registers empty)
  int64_t value = 0;       // the number, or an address's offset
};

struct Instruction {
  Opcode opcode;
  std::string name;  // the opcode with its qualifiers, as written: "mma.sync.aligned.m16n8k16..."
  int m = 0, n = 0, k = 0;
  OperandType a_type = OperandType::f16, b_type = OperandType::f16;
  int matrices = 0;        // ldmatrix: 1, 2 or 4
  bool trans = false;      // ldmatrix .trans
  bool bypass_l1 = false;  // cp.async.cg (16 bytes only)
  std::vector<OperandText> operands;
};

struct Parsed {
  std::vector<Instruction> instructions;
  std::string error;  // empty when every instruction is modelled
};

// Parses the template text (escape sequences already decoded): instructions separated by `;`,
// optionally inside one pair of braces.
Parsed parse(std::string_view text);

}  // namespace sim::ptx
