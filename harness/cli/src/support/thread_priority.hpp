// The priority of the parent's threads that work ahead of the child.
#pragma once

namespace puzzle::cli {

// The drawing and the references start with the check, while nvcc or the compiler builds the child: at
// normal priority their threads on every core slowed puzzle 6's nvcc build from 1.5-1.9 s to 2.4-2.8 s (an
// H100's 16-core host). Niced, they take what the build and the child leave. Threads made from the calling
// one (the workers of parallel_for) inherit it.
void work_behind_the_compiler();

}  // namespace puzzle::cli
