// doctest's runner, compiled once for the test programs that link puzzle_test_main (its implementation is
// a few seconds of compile time per program). The simulator's tests keep their own (tests/sim/test_main.cpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
