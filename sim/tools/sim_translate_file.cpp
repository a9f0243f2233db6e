// sim-translate IN.cu OUT.cpp: the simulator's source translation of one file, for programs built
// outside the puzzle harness (tests/gpu builds one .cu for the device and for the simulator).
#include <fstream>
#include <iostream>
#include <sstream>

#include "translate.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: sim-translate IN.cu OUT.cpp\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "sim-translate: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::stringstream source;
  source << in.rdbuf();
  const sim::TranslateResult result = sim::translate_cuda(source.str(), argv[1]);
  for (const std::string& error : result.errors) std::cerr << error << "\n";
  if (!result.errors.empty()) return 1;
  std::ofstream(argv[2], std::ios::binary) << result.code;
  return 0;
}
