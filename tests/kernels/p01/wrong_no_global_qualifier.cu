// expect: compile_error
// expect-message: a host function call cannot be configured|kernel call to non-global function
// expect-nvcc: error
// Bug: the kernel lost its __global__: it is a host function, and nvcc refuses to launch it with
// <<<...>>>. The simulator's build alone would run it as a kernel; CUDA's front end rejects it.
// mutant-of: solutions/01_row_softmax/1_clear.cu
// replace: __global__ void row_softmax_kernel(const float* x, float* y, int cols) {
// with: void row_softmax_kernel(const float* x, float* y, int cols) {
