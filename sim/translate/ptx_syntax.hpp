// The inline PTX the simulator models, parsed from an asm statement's template: the translator
// rejects any other instruction when it translates the file, and the runtime executes these.
//   mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32  d{4}, a{4}, b{2}, c{4}
//   mma.sync.aligned.m16n8k8.row.col.f32.{f16,bf16}.{f16,bf16}.f32   d{4}, a{2}, b{1}, c{4}
//   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32               d{4}, a{4}, b{2}, c{4}
//   ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared[::cta].b16  d{1,2,4}, [row address]
//   cp.async.{ca,cg}.shared[::cta].global[.L2::{64,128,256}B]        [dst], [src], size[, src size]
//   cp.async.commit_group;  cp.async.wait_group N;  cp.async.wait_all
// and Hopper's asynchronous path (ptx_hopper_syntax.cpp lists the forms):
//   wgmma.mma_async / fence / commit_group / wait_group, mbarrier.init / arrive / expect_tx / try_wait,
//   fence.mbarrier_init and fence.proxy.async, cp.async.bulk.tensor loads and stores with
//   cp.async.bulk.commit_group / wait_group, setmaxnreg, and for a cluster of one block: barrier.cluster,
//   mapa and the cluster special registers; with the scalar setp, selp and mov they are written with,
//   and ex2.approx[.ftz].f32 (the special-function unit's exp2, as --use_fast_math's exp2f compiles).
// A statement may declare registers of its own (`.reg .pred p;`), which its instructions then name.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sim::ptx {

enum class Opcode {
  mma,
  ldmatrix,
  cp_async,
  commit_group,
  wait_group,
  wait_all,
  wgmma,
  wgmma_fence,
  wgmma_commit,
  wgmma_wait,
  mbarrier_init,
  mbarrier_arrive,     // arrive, arrive.expect_tx (Instruction::expect_tx)
  mbarrier_expect_tx,  // expect_tx without an arrival
  mbarrier_try_wait,
  fence_mbarrier_init,
  fence_proxy_async,
  bulk_tensor_load,   // cp.async.bulk.tensor global -> shared, completing on an mbarrier
  bulk_tensor_store,  // cp.async.bulk.tensor shared -> global, in a bulk group
  bulk_commit,
  bulk_wait,
  setmaxnreg,
  cluster_arrive,
  cluster_wait,
  setp,
  selp,
  mov,
  mapa,
  ex2,
};
enum class OperandType { f16, bf16, tf32 };  // of an mma's or wgmma's A and B
enum class Comparison { eq, ne, lt, le, gt, ge };

// The special registers a cluster of one block answers (`%%cluster_ctarank` in an asm template).
enum class SpecialRegister {
  none,
  cluster_ctarank,
  cluster_nctarank,
  clusterid_x,
  clusterid_y,
  clusterid_z,
  nclusterid_x,
  nclusterid_y,
  nclusterid_z,
  cluster_ctaid_x,
  cluster_ctaid_y,
  cluster_ctaid_z,
  cluster_nctaid_x,
  cluster_nctaid_y,
  cluster_nctaid_z,
};

// One operand as written: `%3`, a vector `{%0, %1}`, an address `[%2]` or `[%2+16]`, a tensor address
// `[%1, {%2, %3}]`, a number, a register the statement declared (`p`), `_` or a special register.
struct OperandText {
  // The registers it names, in order: %n as n >= 0, the statement's own register i as -1 - i.
  std::vector<int> registers;
  bool address = false;
  bool immediate = false;  // a number written in the template (registers empty)
  bool sink = false;       // `_`: a result nobody reads
  SpecialRegister special = SpecialRegister::none;
  int64_t value = 0;             // the number, or an address's offset
  std::vector<int> coordinates;  // a tensor address's coordinates (registers as above)
};

struct Instruction {
  Opcode opcode;
  std::string name;  // the opcode with its qualifiers, as written: "mma.sync.aligned.m16n8k16..."
  int m = 0, n = 0, k = 0;
  OperandType a_type = OperandType::f16, b_type = OperandType::f16;
  int matrices = 0;             // ldmatrix: 1, 2 or 4
  bool trans = false;           // ldmatrix .trans
  bool bypass_l1 = false;       // cp.async.cg (16 bytes only)
  bool a_in_registers = false;  // wgmma: A as four registers instead of a descriptor
  bool expect_tx = false;       // mbarrier.arrive.expect_tx
  int dimensions = 0;           // cp.async.bulk.tensor.Nd
  bool multicast = false;       // cp.async.bulk.tensor ... .multicast::cluster (a CTA mask operand)
  bool increase = false;        // setmaxnreg.inc
  Comparison comparison = Comparison::eq;  // setp
  bool is_signed = false;                  // setp, selp: .s32
  bool flush_subnormals = false;           // ex2 .ftz
  std::vector<OperandText> operands;
};

struct Parsed {
  std::vector<Instruction> instructions;
  std::vector<std::string> registers;  // the statement's own (.reg), in declaration order
  std::string error;                   // empty when every instruction is modelled
};

// Parses the template text (escape sequences already decoded): instructions separated by `;`,
// optionally inside one pair of braces.
Parsed parse(std::string_view text);

// ---- shared by ptx_syntax.cpp and ptx_hopper_syntax.cpp ----
// Hopper's instructions: classifies `ins` from its dot-separated qualifiers `q`. Returns false with `why`
// when the opcode is one of them in a form not modelled, and with `why` empty when it is none of them.
bool classify_hopper(Instruction& ins, const std::vector<std::string_view>& q, std::string& why);
// Whether the operands fit a Hopper instruction; `why` says what they should be.
bool hopper_operands_fit(const Instruction& ins, std::string& why);
// A special register's name without the % (cluster_ctarank, clusterid.x ...).
SpecialRegister special_register(std::string_view name);

}  // namespace sim::ptx
