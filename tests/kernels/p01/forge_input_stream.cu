// expect: compile_error
// expect-message: refused: line [0-9]+ of forge_input_stream.cu: `std::basic_ifstream::[^`]*` reads
// expect-sim-cases: 1x1
// Forgery: the input file read through std::basic_ifstream<char>, a name the scan of the source reads as
// another word than ifstream, from a header whose name a macro pastes together; the softmax computed by
// host code and handed to a kernel as its arguments. Refused: the compiled code needs the stream's
// functions, which the symbols name as std::basic_ifstream.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "argument_relay.cuh"

#define JOIN(a, b) a##b
#define HEADER(name) <name>
#include HEADER(JOIN(fst, ream))

// The case's input file: the work folder is the child's first argument.
static bool read_inputs(float* host, size_t count) {
  std::basic_ifstream<char> arguments("/proc/self/cmdline", std::ios::binary);
  std::vector<char> args((std::istreambuf_iterator<char>(arguments)), std::istreambuf_iterator<char>());
  args.push_back('\0');
  const char* folder = args.data() + std::char_traits<char>::length(args.data()) + 1;
  for (int index = 0; index < 256; ++index) {
    char path[4200];
    std::snprintf(path, sizeof path, "%s/case_%d_in_0.bin", folder, index);
    std::basic_ifstream<char> in(path, std::ios::binary | std::ios::ate);
    if (!in || static_cast<size_t>(in.tellg()) != count * sizeof(float)) continue;
    in.seekg(0);
    in.JOIN(re, ad)(reinterpret_cast<char*>(host), static_cast<std::streamsize>(count * sizeof(float)));
    return true;
  }
  return false;
}

void row_softmax(const float* x, float* y, int rows, int cols) {
  softmax_through_arguments(y, rows, cols, read_inputs);
}
