// mma.sync and ldmatrix: warp collectives over register fragments, with the fragment layouts of the
// PTX ISA ("Matrix Fragments for mma.m16n8k16 / m16n8k8", "ldmatrix"). Each lane brings its operands
// (for ldmatrix: the 16 bytes at the row address it supplies, read through the memory checker); once the
// whole warp has arrived, complete_warp_matrix computes every lane's result.
#pragma once
#include <cstdint>
#include <source_location>

#include "ptx_syntax.hpp"

namespace sim {

struct WarpMatrixCall {
  const ptx::Instruction* instruction;
  std::source_location where;
  uint32_t a[4] = {}, b[2] = {};  // mma: the A and B fragment registers
  float c[4] = {};                // mma: the accumulators
  uint32_t row[4] = {};           // ldmatrix: the row this lane addressed (8 x 16 bits)
  uint32_t out[4] = {};           // the lane's results: D (float bits) or the loaded registers
};

// Runs the instruction for the calling lane: returns once the warp has executed it.
void run_warp_matrix(WarpMatrixCall& call);

}  // namespace sim
