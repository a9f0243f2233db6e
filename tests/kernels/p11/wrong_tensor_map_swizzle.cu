// expect: failed
// expect-gpu: crashed
// expect-sim-diagnosis: sim_tensor_map_invalid
// expect-sim-cases: 128x128x64
// mutant-of: solutions/11_wgmma_gemm/1_clear.cu
// replace:                          CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
// with:                          CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
// Wrong: a 64-byte swizzle for boxes whose rows are 128 bytes (64 bf16): cuTensorMapEncodeTiled refuses it
// (CUDA_ERROR_INVALID_VALUE, which the launcher ignores) and the copies use a map that was never made.
