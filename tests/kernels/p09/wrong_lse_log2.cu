// expect: failed
// expect-diagnosis: lse_wrong_base
// expect-sim-cases: 1x17x17x64_causal
// Wrong: lse = m + log2(l), base-2 units a kernel that works in exp2 forgot to convert back. o is right.
#define logf log2f
#include "correct_thread_per_row.cu"
