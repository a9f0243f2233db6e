// expect: passed
// backends: gpu
// Correct, written differently: the reference solution with CUDA's fast intrinsics __expf and __logf in
// place of exp2f and log2f. __expf is an approximate ex2 of x * log2(e), whose relative error grows with
// |x|: large only where exp(x) is already tiny next to the row's largest term, so the result stays within
// the tolerance. A checker that failed this kernel would fail a common, legitimate optimization.
// GPU only: the simulator's __expf is expf, so there the kernel is the solution itself.
#define exp2f(x) __expf((x) * 0.6931471805599453f)
#define log2f(x) (__logf(x) * 1.4426950408889634f)
#include "../../../solutions/05_flash_forward/2_register_tiles.cu"
