// expect: failed
// expect-diagnosis: v_not_transposed
// expect-sim-cases: 1x17x17x64_causal
// Wrong: V's B fragments for O += P V loaded by ldmatrix without .trans: each lane gets its pair along
// V's columns where the product wants it along the keys, so every 8 x 8 block of V enters o transposed.
// lse is right (V does not enter it); the diagnosis names the missing .trans, not a rescale.
// mutant-of: solutions/09_flash_forward_bf16/1_clear.cu
// replace: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// with: ldmatrix.sync.aligned.m8n8.x4.shared.b16
