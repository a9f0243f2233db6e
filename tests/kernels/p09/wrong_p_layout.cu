// expect: failed
// expect-diagnosis: o_not_rescaled
// expect-sim-cases: 1x17x17x64_causal
// Wrong: P handed to O += P V in the wrong fragment layout: a1 and a2 swapped, so row g + 8's keys 0-7
// stand where row g's keys 8-15 belong. lse is right (the softmax is), o is not; the diagnosis says lse is
// right and points at how P and V reach the second product.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: pack_bf16(s[2 * kk][0], s[2 * kk][1]), pack_bf16(s[2 * kk][2], s[2 * kk][3]),
// with: pack_bf16(s[2 * kk][0], s[2 * kk][1]), pack_bf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
