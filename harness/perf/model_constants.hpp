// The constants of the speed estimate's model in one place (docs/simulator.md, "Estimated speed", says what
// each is and how the values were chosen): the time model and the cache model read them, and a fit against
// the calibration tables may try others.
#pragma once

namespace puzzle::perf {

struct ModelConstants {
  // A timed call's start (measured: docs/measurements/01_row_softmax.md) and each further launch's.
  double first_launch_seconds = 3.0e-6;
  double next_launch_seconds = 1.5e-6;
  double instructions_per_operator = 0.4;  // SASS instructions per source operator the translator counts
  // Instructions per special function: expf is 8 in nvcc's PTX for sm_90 (range reduction in four fused
  // multiply-adds and an add, the exponent's shift, ex2.approx and the scaling multiply).
  double special_issue = 8;
  double mma_sync_share = 0.48;       // of the tensor cores' peak that mma.sync reaches
  double wgmma_share = 0.75;          // and wgmma, fed from shared memory (what cuBLAS's GEMMs reach)
  double l2_bytes_per_sm_clock = 32;  // what one SM can take from L2
  double loads_in_flight = 4;         // independent loads a thread keeps outstanding
  // A thread's dependent chain: SM clocks per unit of each kind of work (a load's come from the caches).
  double operator_chain = 0.5, special_chain = 18, shared_chain = 4.7, collective_chain = 10,
         barrier_chain = 20, tensor_chain = 4;
  // The share of L2 that holds reused data, and a load's latency from L1, L2 and DRAM in SM clocks.
  double usable_l2 = 0.58;
  double l1_latency = 35, l2_latency = 150, dram_latency = 1250;
  // How the limits combine: their p-norm with this p (infinity would be the largest alone).
  double overlap = 2.55;
  // What a block costs its SM besides its work (its start, its end, the wait for its slowest warp).
  double block_cycles = 3200;
};

}  // namespace puzzle::perf
