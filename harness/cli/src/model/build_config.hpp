// Where the things a check needs live, as CMake configured them (generated build_config_values.cpp).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace puzzle::cli {

struct BuildConfig {
  std::string version;
  std::filesystem::path source_dir;  // the repository: puzzles/ (stubs), solutions/, .puzzle/
  std::filesystem::path build_dir;   // build/checks/ and build/cache/ live here
  std::filesystem::path sim_include_dir;
  std::filesystem::path sim_pch_dir;  // cuda_runtime.h (including sim_include_dir's) and its .gch
  std::vector<std::string> sim_kernel_flags;
  std::filesystem::path cxx;
  std::filesystem::path
      cmake;  // builds a puzzle's own libraries on its first check (compile/puzzle_parts.hpp)
  std::map<std::string, std::filesystem::path>
      libraries;  // target name -> static library file (+ sim_translate)
  std::map<int, std::filesystem::path> entry_libraries;  // puzzle id -> libpuzzle_entry_NN.a
  std::map<int, std::filesystem::path> glue_libraries;   // puzzle id -> libpuzzle_glue_NN.a
  std::filesystem::path probe;                           // empty without CUDA
  bool have_cuda = false;
  std::filesystem::path nvcc;
  std::string cuda_arch;  // "90"
  // CUDA's compile rules on the simulator's path (compile/cuda_front_end.hpp): nvcc, found even where the
  // GPU build is not configured; empty if absent.
  std::filesystem::path cuda_front_end_nvcc;
  // Else clang's CUDA mode: clang++ (empty if absent or older than 14), its own headers' folder, and
  // the project's declarations of CUDA's headers (sim/front_end_include).
  std::filesystem::path cuda_front_end_clang;
  std::filesystem::path cuda_front_end_clang_include;
  std::filesystem::path cuda_front_end_headers;
};

const BuildConfig& build_config();

}  // namespace puzzle::cli
