// expect: failed
// expect-sim-diagnosis: sim_wgmma_layout_mismatch
// expect-sim-cases: 128x128x64
// mutant-of: solutions/11_wgmma_gemm/1_clear.cu
// replace:          (static_cast<uint64_t>(1024 >> 4) << 32) | (static_cast<uint64_t>(1) << 62);
// with:          (static_cast<uint64_t>(1024 >> 4) << 32) | (static_cast<uint64_t>(2) << 62);
// Wrong: the descriptors say 64-byte swizzle, but the tensor maps landed the tiles 128-byte swizzled: wgmma
// reads the 16-byte chunks of each row in the wrong places. The simulator names the mismatch.
