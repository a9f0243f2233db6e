// expect: compile_error
// expect-message: calling a __host__ function.*warp_reduce
// Bug: the warp reduction helper lost its __device__, the commonest slip of a first kernel. nvcc refuses
// to call a host function from device code; g++ with the simulator's headers would not notice, so every
// simulator build also compiles the file with CUDA's own front end, whose error this is.
// mutant-of: solutions/01_row_softmax/1_clear.cu
// replace: __device__ float warp_reduce(float v, bool is_max, int lanes = 32) {
// with: float warp_reduce(float v, bool is_max, int lanes = 32) {
