// The copy rules of a graded run (docs/grading.md): once the child has loaded the learner's code, no copy
// takes device memory to the host. A program of its own on the simulator (tests, tools) copies freely.
#pragma once

namespace sim {

void refuse_copies_to_host();   // from now on, in this process
bool copies_to_host_refused();  // whether refuse_copies_to_host was called

}  // namespace sim
