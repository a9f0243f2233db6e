// Shared-memory bank conflicts, measured: the wavefronts each warp-wide shared-memory instruction
// needs (32 banks of 4 bytes). The lanes of a warp run as separate fibers, so the accesses of one
// instruction arrive one lane at a time: they are grouped by (warp, instruction, dynamic instance), the
// instance being how many times this lane has executed this instruction since the last __syncthreads()
// (which every lane passes). A group is counted once every lane of the warp has joined it, and at the
// next __syncthreads() or the block's end otherwise (lanes that branched around it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/context.hpp"
#include "diagnostics/report.hpp"
#include "sim/harness_api.h"

namespace sim::memory {

// Wavefronts for one instruction: `addresses[l]` for each lane l in `lanes`, each access `bytes` wide.
// 4 bytes or less: the warp in one phase; 8 bytes: two half-warp phases; 16 bytes (also each 8-row
// matrix of an ldmatrix): four quarter-warp phases. A phase needs as many wavefronts as the most
// distinct 4-byte words any one bank holds among its lanes (one word read by many lanes is a broadcast).
struct Wavefronts {
  unsigned needed = 0;  // what the hardware takes
  unsigned ideal = 0;   // without conflicts: the phases that have an active lane
};
Wavefronts count_wavefronts(const uint64_t* addresses, uint32_t lanes, unsigned bytes);

// Records one lane's access (the memory checker calls it for loads, stores and ldmatrix rows).
void record_bank_access(const ThreadState& thread, uintptr_t address, size_t bytes, bool write,
                        const Where& where);
void settle_bank_groups();  // at __syncthreads()
void end_block_banks();     // at the block's end: settles, and adds the block's counts to the launcher's
void reset_bank_counts();   // at begin_launcher
// Per source line, for the harness report (PCs symbolized).
std::vector<harness::SharedWavefronts> bank_counts();

}  // namespace sim::memory
