// Inline PTX (sim/include/sim/ptx.h): the statement's template is parsed once per call site, then
// each instruction runs for the calling thread: mma and ldmatrix as warp collectives (warp_matrix.cpp),
// cp.async through the same path as __pipeline_memcpy_async, Hopper's asynchronous path in hopper.hpp's
// modules (mbarrier.cpp, bulk_tensor.cpp, wgmma.cpp, warpgroup_misc.cpp) and the scalar instructions
// their wrappers use in scalar.cpp.
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>

#include "core/context.hpp"
#include "cuda_pipeline_primitives.h"
#include "diagnostics/describe.hpp"
#include "diagnostics/store.hpp"
#include "memory/access.hpp"
#include "ptx/hopper.hpp"
#include "ptx/operands.hpp"
#include "ptx/warp_matrix.hpp"
#include "ptx_syntax.hpp"
#include "sim/ptx.h"

namespace sim::ptx {
namespace {

const Parsed& parsed(const char* asm_template) {
  thread_local std::unordered_map<const char*, Parsed> cache;  // string literals: one address per site
  auto found = cache.find(asm_template);
  if (found == cache.end()) found = cache.emplace(asm_template, parse(asm_template)).first;
  return found->second;
}

void run_mma(const Instruction& ins, const Bound& bound) {
  WarpMatrixCall call{&ins, bound.where()};
  for (size_t i = 0; i < ins.operands[1].registers.size(); ++i)
    call.a[i] = static_cast<uint32_t>(bound.value(ins.operands[1], i, "r"));
  for (size_t i = 0; i < ins.operands[2].registers.size(); ++i)
    call.b[i] = static_cast<uint32_t>(bound.value(ins.operands[2], i, "r"));
  for (size_t i = 0; i < 4; ++i)
    call.c[i] = std::bit_cast<float>(static_cast<uint32_t>(bound.value(ins.operands[3], i, "f")));
  run_warp_matrix(call);
  for (size_t i = 0; i < 4; ++i) bound.write(ins.operands[0], i, call.out[i]);
}

// The 16 bytes at this lane's row address, if it supplies one (lanes 0-7 per matrix): through the
// memory checker, so bounds, races, unwaited cp.async and bank conflicts are seen as for a load.
void read_row(const Instruction& ins, const Bound& bound, WarpMatrixCall& call) {
  const ThreadState& self = *current_thread();
  if (self.lane >= 8u * ins.matrices) return;
  const uint64_t address =
      bound.value(ins.operands[1], 0, "rl") + static_cast<uint64_t>(ins.operands[1].value);
  const auto& local = memory::host_thread_access;
  const char* problem = address + 16 > local.shared_size ? "outside this block's shared memory"
                        : address % 16 != 0 ? "not a multiple of 16 (each row is 16 bytes, aligned)"
                                            : nullptr;
  if (problem) {
    const Where at = where_of(bound.where());
    std::memset(call.row, 0xFF, sizeof call.row);
    if (count_repeat("ldmatrix_bad_address", at)) return;
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
    report(Severity::error, "ldmatrix_bad_address", at,
           ins.name + ": lane " + std::to_string(self.lane) + " of warp " + std::to_string(self.warp) +
               " supplies the address of row " + std::to_string(self.lane % 8) + " of matrix " +
               std::to_string(self.lane / 8) + ", shared address " + hex + ", " + problem +
               ". Row addresses are 32-bit shared-memory addresses (__cvta_generic_to_shared).");
    return;
  }
  const auto* row = reinterpret_cast<const void*>(local.shared_lo + address);
  memory::on_access(row, 16, memory::Access::read, false, where_of(bound.where()));
  std::memcpy(call.row, row, 16);
}

void run_ldmatrix(const Instruction& ins, const Bound& bound) {
  WarpMatrixCall call{&ins, bound.where()};
  read_row(ins, bound, call);
  run_warp_matrix(call);
  for (int j = 0; j < ins.matrices; ++j) bound.write(ins.operands[0], j, call.out[j]);
}

void run_cp_async(const Instruction& ins, const Bound& bound) {
  const auto& local = memory::host_thread_access;
  const uint64_t shared_address = bound.value(ins.operands[0], 0, "rl") + ins.operands[0].value;
  const uint64_t source = bound.value(ins.operands[1], 0, "l") + ins.operands[1].value;
  const uint64_t bytes = bound.value(ins.operands[2], 0, "rn");
  const uint64_t source_bytes = ins.operands.size() > 3 ? bound.value(ins.operands[3], 0, "rn") : bytes;
  if (ins.bypass_l1 && bytes != 16) bound.fail("async_copy_invalid", "cp.async.cg copies 16 bytes");
  if (source_bytes > bytes)
    bound.fail("async_copy_invalid", "the source size (" + std::to_string(source_bytes) +
                                         ") is larger than the copy (" + std::to_string(bytes) + ")");
  __pipeline_memcpy_async(reinterpret_cast<void*>(local.shared_lo + shared_address),
                          reinterpret_cast<const void*>(source), bytes, bytes - source_bytes, bound.where());
}

}  // namespace

void execute(const char* asm_template, std::initializer_list<Operand> operands, std::source_location where) {
  const Parsed& statement = parsed(asm_template);
  if (!statement.error.empty()) {
    report(Severity::error, "asm_not_modelled", where_of(where), statement.error);
    if (current_thread()) stop_running_block();
    return;
  }
  LocalRegisters locals{};
  for (const Instruction& ins : statement.instructions) {
    const Bound bound(ins, operands, locals, where);
    switch (ins.opcode) {
      case Opcode::mma:
        run_mma(ins, bound);
        break;
      case Opcode::ldmatrix:
        run_ldmatrix(ins, bound);
        break;
      case Opcode::cp_async:
        run_cp_async(ins, bound);
        break;
      case Opcode::commit_group:
        __pipeline_commit();
        break;
      case Opcode::wait_group:
        __pipeline_wait_prior(bound.value(ins.operands[0], 0, "n"));
        break;
      case Opcode::wait_all:
        __pipeline_commit();
        __pipeline_wait_prior(0);
        break;
      default:
        run_hopper(bound);
        break;
    }
  }
}

}  // namespace sim::ptx

size_t __cvta_generic_to_shared(const void* pointer) {
  return reinterpret_cast<uintptr_t>(pointer) - sim::memory::host_thread_access.shared_lo;
}

void* __cvta_shared_to_generic(size_t address) {
  return reinterpret_cast<void*>(sim::memory::host_thread_access.shared_lo + address);
}
