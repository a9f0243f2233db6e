// expect: failed
// expect-diagnosis: o_not_rescaled
// expect-sim-cases: 2x127x129x64_causal
// Wrong: the clear solution without the rescale of O when a tile raises a row's max: l is rescaled, the
// accumulator is not, so earlier tiles keep too much weight in o; lse is right.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: for (int n = 0; n < D / 8; ++n) acc[n][2 * r] *= rescale, acc[n][2 * r + 1] *= rescale;
// with: // (O not rescaled)
