// The simulator tests' main (doctest). doctest's own signal handlers stay off: the simulator
// reports crashes itself, and test_core_crash.cpp checks how.
#define DOCTEST_CONFIG_NO_POSIX_SIGNALS
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
