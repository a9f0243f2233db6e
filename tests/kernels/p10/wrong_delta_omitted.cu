// expect: failed
// expect-diagnosis: delta_omitted
// expect-sim-cases: 1x1x1x64_causal
// Wrong: dS = P * dP, without subtracting D_i = rowsum(dO * O): the softmax's Jacobian has two terms and
// this keeps one. dV is still right (it does not involve dS); dQ and dK are not.
// mutant-of: solutions/10_flash_backward_bf16/1_clear.cu
// replace: dp[j][e] = s[j][e] * (dp[j][e] - delta_tile[row]);
// with: dp[j][e] = s[j][e] * dp[j][e];
