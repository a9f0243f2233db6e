// Reports crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL) and the parent's timeout (SIGTERM) in one line
// each on stderr; see crash_handler.cpp for the formats.
#pragma once

namespace sim {

void install_crash_handlers();  // once per process; done before main, repeating it is free
// Signal handlers run on a stack of their own, so a fiber's stack overflow can still be reported.
// Once per host thread that runs simulated threads.
void use_alternate_signal_stack();

}  // namespace sim
