// expect: passed
// expect-sim-message: bank conflicts: 1_clear.cu:[0-9]+: [0-9]+ warp instructions took [0-9]+ wavefronts
// expect-sim-cases: 1x17x17x64_causal 2x127x129x64
// Right values, slow layout: the clear solution without the 16 bytes of padding per shared row, so the Q,
// K, V, dO and dS^T tiles are plain row-major: every ldmatrix phase reads 8 rows that start in the same 4
// banks. Puzzle 10 sets no bank-conflict budget, so this passes; the simulator's note says which lines
// conflict and how much.
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: constexpr int kPad = 8;
// with: constexpr int kPad = 0;
