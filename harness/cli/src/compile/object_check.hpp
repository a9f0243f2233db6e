// Checks of the learner's compiled code, which no spelling of the source can dodge (docs/grading.md, "the
// check of the file"): its host machine code may make no system call itself, and may call none of the
// APIs that would let host code see device data, give kernels host memory or run host code from a
// stream; and its shared object may need no symbol that neither the runner nor a library provides.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "model/check_report.hpp"

namespace puzzle::cli {

// Why a symbol the code refers to (demangled, without its parameters) is refused, or nullptr.
using SymbolRule = const char* (*)(const std::string& symbol);

// `objdump -d -r -l` of `object` (compiled with debug info), and the symbols it needs: ok, or refused with
// the first offence and its source line ("refused: line 12 of x.cu: `cudaHostAlloc` ...").
BuildInfo check_object_code(const std::filesystem::path& object);

// The symbols `object` needs that `rule` refuses (one named only from data, as a function pointer in a
// table, too): ok, or refused with the first, and its source line where code names it.
BuildInfo check_object_symbols(const std::filesystem::path& object, SymbolRule rule);

// The symbols `library` needs that neither carry a library version nor are among `exports` (the runner's
// dynamic symbols, one a line): the launcher missing ("your file must define <signature> ..."), or any
// other function the file declares and never defines. nullopt when every symbol is provided.
std::optional<std::string> unresolved_symbols(const std::filesystem::path& library,
                                              const std::filesystem::path& exports,
                                              const std::string& signature);

// The runner's dynamic symbols, one a line, as unresolved_symbols reads them.
std::string exported_symbols(const std::filesystem::path& program);

}  // namespace puzzle::cli
