// expect: crashed
// expect-diagnosis: launch_error
// expect-sim-diagnosis: sim_misaligned_access
// expect-message: why: CUDA error: cudaErrorMisalignedAddress.*not aligned to its size
// expect-sim-cases: 16x8x16
// Wrong: a's pairs read one element too far along k, at an odd index: a 4-byte __nv_bfloat162 load from
// an address that is 2 bytes off its alignment. A GPU stops the kernel (cudaErrorMisalignedAddress)
// before any store, and so does the simulator, which names the line; the why is the misaligned access,
// not a launcher that launched nothing.
#include "warp_tile.cuh"

struct OddPairStep {
  __device__ void operator()(const Tile& w, int k0, float acc[4]) const {
    uint32_t fa[4], fb[2];
    load_a(w, k0 + 1, fa);
    load_b(w, k0, fb);
    mma_k16(acc, fa, fb);
  }
};

void warp_mma(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m, int n, int k) {
  launch_warp_tiles<OddPairStep, RightStore>(a, b, c, m, n, k, k);
}
