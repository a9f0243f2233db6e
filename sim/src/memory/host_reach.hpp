// Device memory beyond host code's reach while the learner's launcher runs. On a GPU without HMM, host
// code cannot dereference device memory; here device memory is host memory, and the C library's own loads
// and stores (mempcpy, bcopy, strncpy: code the simulator does not instrument) would reach it unchecked.
// So while the launcher runs, the arena and the pages that hold only writable __device__ variables are
// closed to the process (PROT_NONE), and only the runtime's own work opens them: a copy, a set, an
// allocation, a kernel. Host code that reaches them faults, as on a GPU.
#pragma once

namespace sim::memory {

void close_to_host_code();  // the launcher starts
void open_to_host_code();   // it returned

// Device memory open for the runtime's work while the launcher runs; nests.
class RuntimeWork {
 public:
  RuntimeWork();
  ~RuntimeWork();
  RuntimeWork(const RuntimeWork&) = delete;
  RuntimeWork& operator=(const RuntimeWork&) = delete;

 private:
  bool opened_ = false;  // this one opened a closed memory, and closes it again
};

}  // namespace sim::memory
