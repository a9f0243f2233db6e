// expect: passed
// expect-sim-message: bank conflicts: 1_clear.cu:[0-9]+: [0-9]+ warp instructions took [0-9]+ wavefronts
// expect-sim-cases: 1x17x17x64_causal 2x127x129x64
// Right values, slow layout: the clear solution with the XOR swizzle taken out, so Q, K and V tiles are
// plain row-major. Every ldmatrix phase reads 8 rows that start in the same 4 banks. Puzzle 9 sets no
// bank-conflict budget, so this passes; the simulator's note says which lines conflict and how much.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: return row * D + ((col / 8) ^ (row % 8)) * 8 + col % 8;
// with: return row * D + col;
