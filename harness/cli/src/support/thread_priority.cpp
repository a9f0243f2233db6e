#include "support/thread_priority.hpp"

#include <sys/resource.h>
#include <unistd.h>

namespace puzzle::cli {

void work_behind_the_compiler() {
#ifdef __linux__
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);  // Linux: per thread; failure costs only speed
#endif
}

}  // namespace puzzle::cli
