// expect: compile_error
// expect-message: calling a constexpr __host__ function.*max|no matching function for call to 'max'
// expect-nvcc: error
// Bug: std::max in a kernel. It is a constexpr host function, which nvcc refuses in device code unless
// built with --expt-relaxed-constexpr (fmaxf is the device function). g++ compiles it for the simulator;
// CUDA's front end, which every simulator build runs too, rejects it as a GPU build does.
// mutant-of: solutions/01_row_softmax/1_clear.cu
// replace:     m = fmaxf(m, v[i]);  // 1. the max of this thread's values ...
// with:     m = std::max(m, v[i]);  // 1. the max of this thread's values ...
