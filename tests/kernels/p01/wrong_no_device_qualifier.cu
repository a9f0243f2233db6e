// expect: compile_error
// expect-message: calling a __(host|device)__ function.*warp_reduce|no matching function for call to 'warp_reduce'
// expect-nvcc: error
// Bug: the warp reduction helper lost its __device__, the commonest slip of a first kernel. nvcc refuses
// it (CUDA's front end on the simulator's path names the host function called from the kernel; a GPU
// build, the __shfl_xor_sync called from the host function); g++ with the simulator's headers would not
// notice, so every simulator build also compiles the file with CUDA's own front end.
// mutant-of: solutions/01_row_softmax/1_clear.cu
// replace: __device__ float warp_reduce(float v, bool is_max, int lanes = 32) {
// with: float warp_reduce(float v, bool is_max, int lanes = 32) {
