#include "compile/object_check.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "compile/link_errors.hpp"
#include "support/demangle.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"

namespace puzzle::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCallsTheKernel =
    "is a system call made by the file's own machine code: the process and its files are the harness's";
constexpr const char* kUncheckedCopy =
    "copies device memory in a way the harness does not check: no data leaves the device in a launcher";
constexpr const char* kGivesHostMemory =
    "gives kernels host memory (or untracked device memory): outputs are written by kernels to the buffers "
    "the launcher gets, and scratch memory comes from cudaMalloc";
constexpr const char* kRunsHostWork = "runs host code from a stream or graph: compute the outputs in kernels";
constexpr const char* kLooksUpCode =
    "looks up functions at run time, past the checks of the calls it makes: call the CUDA runtime directly";

// Why a call of `symbol` is refused, or nullptr. The copies the GPU child wraps (build_commands.cpp) and
// those into a symbol, which keep data on the device, are allowed; every other cudaMemcpy* is not.
const char* refusal(const std::string& symbol) {
  static const std::set<std::string> checked_copies = {
      "cudaMemcpy",           "cudaMemcpyAsync",           "cudaMemcpy2D",       "cudaMemcpy2DAsync",
      "cudaMemcpy3D",         "cudaMemcpy3DAsync",         "cudaMemcpyPeer",     "cudaMemcpyPeerAsync",
      "cudaMemcpyFromSymbol", "cudaMemcpyFromSymbolAsync", "cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync"};
  static const std::map<std::string, const char*> named = [] {
    std::map<std::string, const char*> t;
    for (const char* name :
         {"cudaHostAlloc", "cudaMallocHost", "cudaHostRegister", "cudaHostGetDevicePointer",
          "cudaMallocManaged", "__cudaRegisterManagedVar", "cudaMallocAsync", "cudaMallocFromPoolAsync",
          "cudaMemPoolCreate", "cudaMallocPitch", "cudaMalloc3D", "cudaMallocArray", "cudaMalloc3DArray",
          "cudaMallocMipmappedArray"})
      t[name] = kGivesHostMemory;
    for (const char* name : {"cudaLaunchHostFunc", "cudaStreamAddCallback"}) t[name] = kRunsHostWork;
    for (const char* name :
         {"dlopen", "dlmopen", "dlsym", "dlvsym", "dl_iterate_phdr", "cudaGetDriverEntryPoint",
          "cudaGetDriverEntryPointByVersion", "cudaGetExportTable", "cuGetProcAddress"})
      t[name] = kLooksUpCode;
    t["syscall"] = kCallsTheKernel;
    return t;
  }();
  if (const auto it = named.find(symbol); it != named.end()) return it->second;
  if (symbol.starts_with("cudaMemcpy") && !checked_copies.contains(symbol)) return kUncheckedCopy;
  // Graph nodes made by hand that copy or run host code, and the generic node calls that can make them
  // (copies captured from a stream go through the wrapped calls).
  static const std::set<std::string> generic_nodes = {"cudaGraphAddNode", "cudaGraphAddNode_v2",
                                                      "cudaGraphNodeSetParams", "cudaGraphExecNodeSetParams"};
  if (symbol.starts_with("cudaGraph") && symbol.find("Host") != std::string::npos) return kRunsHostWork;
  if (symbol.starts_with("cudaGraph") &&
      (symbol.find("Memcpy") != std::string::npos || generic_nodes.contains(symbol)))
    return kUncheckedCopy;
  return nullptr;
}

// The instruction that enters the kernel: x86-64's syscall, sysenter and int $0x80, AArch64's svc.
bool system_call_instruction(std::string_view mnemonic, std::string_view operands) {
  return mnemonic == "syscall" || mnemonic == "sysenter" || mnemonic == "svc" ||
         (mnemonic == "int" && operands.find("0x80") != std::string_view::npos);
}

std::string describe_location(const std::string& file, int line) {
  if (line <= 0) return "";
  return "line " + std::to_string(line) + " of " + fs::path(file).filename().string() + ": ";
}

// Its stdout; EnvironmentError when it cannot run (the harness needs binutils: objdump, nm, addr2line).
std::string binutils(const std::vector<std::string>& argv) {
  const CapturedRun run = run_captured(argv, std::nullopt, StderrMode::discarded);
  if (!run.status.ok())
    throw EnvironmentError("`" + argv.front() + "` (binutils) failed on " + argv.back() +
                           "; is binutils installed?");
  return run.output;
}

// A symbol as the rules read it: demangled, without its parameters (the simulator's runtime API is C++:
// `cudaMallocHost(void**, unsigned long)` is named `cudaMallocHost`).
std::string readable_name(const std::string& symbol) {
  const std::string readable = demangled(symbol);
  return readable.substr(0, readable.find('('));
}

// A symbol as a refusal shows it: `std::basic_ifstream` for "VTT for std::basic_ifstream<char, ...>".
std::string shown_name(const std::string& readable) {
  std::string name = readable;
  for (const char* prefix : {"construction vtable for ", "typeinfo name for ", "typeinfo for ", "vtable for ",
                             "VTT for ", "guard variable for "}) {
    if (name.starts_with(prefix)) name.erase(0, std::strlen(prefix));
  }
  return without_template_arguments(name);
}

// The dynamic symbols defined by the libraries `library` needs, found where the loader finds them (ldd:
// "libcuda.so.1 => /lib/x86_64-linux-gnu/libcuda.so.1 (0x...)").
std::set<std::string> symbols_of_needed_libraries(const fs::path& library) {
  std::set<std::string> names;
  const CapturedRun ldd = run_captured({"ldd", library.string()}, std::nullopt, StderrMode::discarded);
  std::istringstream lines(ldd.output);
  for (std::string text; std::getline(lines, text);) {
    const size_t arrow = text.find("=> /");
    if (arrow == std::string::npos) continue;
    const std::string path = text.substr(arrow + 3, text.find(" (", arrow) - arrow - 3);
    std::istringstream symbols(binutils({"nm", "-D", "--defined-only", "--format=posix", path}));
    for (std::string line; std::getline(symbols, line);) {
      const std::string name = line.substr(0, line.find(' '));
      names.insert(name.substr(0, name.find('@')));
    }
  }
  return names;
}

// The first offence in the code of `object`, with its source line: a relocation naming a symbol `rule`
// refuses, or (with `system_calls`) a system-call instruction.
BuildInfo first_offence(const fs::path& object, SymbolRule rule, bool system_calls) {
  // objdump's lines, by hand (a large object has tens of thousands: std::regex took seconds):
  //   "/path/x.cu:42" or "/path/x.cu:42 (discriminator 3)"   where the next instructions come from
  //   "  4005:\tsyscall"                                        an instruction
  //   "\t\t\t4006: R_X86_64_PLT32\tcudaHostAlloc-0x4"           a relocation: the symbol it names
  std::istringstream lines(binutils({"objdump", "-d", "-r", "-l", "--no-show-raw-insn", object.string()}));
  std::string text, file;
  int line = 0;
  BuildInfo found{.ok = true};
  bool found_own = false;
  int found_line = 0;
  while (std::getline(lines, text)) {
    const std::string_view view = text;
    if (view.empty()) continue;
    if (!std::isspace(static_cast<unsigned char>(view.front()))) {
      const std::string_view place = view.substr(0, view.find(" (discriminator"));
      const size_t colon = place.rfind(':');
      if (colon != std::string_view::npos && colon + 1 < place.size() &&
          place.find_first_not_of("0123456789", colon + 1) == std::string_view::npos) {
        file = std::string(place.substr(0, colon));
        line = std::stoi(std::string(place.substr(colon + 1)));
      }
      continue;
    }
    const size_t colon = view.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view rest = view.substr(colon + 1);
    rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
    const std::string_view first = rest.substr(0, rest.find_first_of(" \t"));
    std::string offence;
    const char* why = nullptr;
    if (first.starts_with("R_")) {
      std::string_view symbol = rest.substr(first.size());
      symbol.remove_prefix(std::min(symbol.size(), symbol.find_first_not_of(" \t")));
      symbol = symbol.substr(0, symbol.find_first_of("-+@"));
      offence = readable_name(std::string(symbol));
      why = rule(offence);
    } else if (system_calls && system_call_instruction(first, rest.substr(first.size()))) {
      offence = std::string(first);
      why = kCallsTheKernel;
    }
    if (!why) continue;
    // Code inlined from a library's header (std::basic_ifstream's constructor) is placed in that header:
    // the learner's own first line, where there is one, says more.
    const std::string ext = fs::path(file).extension().string();
    const bool own_file = ext == ".cu" || ext == ".cuh";
    if (found.ok || (own_file && (!found_own || line < found_line))) {
      found = BuildInfo{
          .ok = false,
          .message = "refused: " + describe_location(file, line) + "`" + shown_name(offence) + "` " + why};
      found_own = own_file;
      found_line = line;
    }
  }
  return found;
}

// The symbols `object` needs from elsewhere, readable, in nm's order.
std::vector<std::string> undefined_symbols(const fs::path& object) {
  std::istringstream lines(binutils({"nm", "-u", "--format=posix", object.string()}));
  std::vector<std::string> names;
  for (std::string text; std::getline(lines, text);)
    names.push_back(readable_name(text.substr(0, text.find(' '))));
  return names;
}

}  // namespace

BuildInfo check_object_code(const fs::path& object) {
  BuildInfo checked = first_offence(object, refusal, true);
  if (!checked.ok) return checked;
  return check_object_symbols(object, refusal);
}

BuildInfo check_object_symbols(const fs::path& object, SymbolRule rule) {
  // nm first: an honest file's symbols take milliseconds to read, objdump's disassembly far longer.
  for (const std::string& name : undefined_symbols(object)) {
    const char* why = rule(name);
    if (!why) continue;
    BuildInfo placed = first_offence(object, rule, false);
    // Named only from data (a table of function pointers), not from code: refused all the same.
    if (placed.ok) return BuildInfo{.ok = false, .message = "refused: `" + shown_name(name) + "` " + why};
    return placed;
  }
  return BuildInfo{.ok = true};
}

std::optional<std::string> unresolved_symbols(const fs::path& library, const fs::path& exports,
                                              const std::string& signature) {
  std::set<std::string> provided;
  std::istringstream names(read_text(exports).value_or(""));
  for (std::string name; std::getline(names, name);) provided.insert(name);
  std::istringstream lines(binutils({"nm", "-D", "--undefined-only", "--format=posix", library.string()}));
  std::vector<std::string> missing;
  for (std::string text; std::getline(lines, text);) {
    // "NAME U" for a strong reference; a versioned one ("cudaMalloc@libcudart.so.13") is the library's.
    std::istringstream fields(text);
    std::string name, type;
    fields >> name >> type;
    if (type == "U" && name.find('@') == std::string::npos && !provided.contains(name))
      missing.push_back(name);
  }
  if (missing.empty()) return std::nullopt;
  // What the libraries it was linked with (-lcuda, -lcublas) define: their symbols need no version (the
  // driver's cuTensorMapEncodeTiled has none).
  const std::set<std::string> linked = symbols_of_needed_libraries(library);
  std::erase_if(missing, [&](const std::string& name) { return linked.contains(name); });
  if (missing.empty()) return std::nullopt;
  const std::string launcher = function_name(signature);
  for (const std::string& name : missing) {
    const std::string readable = demangled(name);
    if (readable.starts_with(launcher + "("))
      return "your file must define " + signature +
             " (with exactly these parameter types); the linker found no such function";
  }
  return "your file does not link: `" + demangled(missing.front()) + "` is used but never defined";
}

std::string exported_symbols(const fs::path& program) {
  std::istringstream lines(binutils({"nm", "-D", "--defined-only", "--format=posix", program.string()}));
  std::string names;
  for (std::string text; std::getline(lines, text);) names += text.substr(0, text.find(' ')) + "\n";
  return names;
}

}  // namespace puzzle::cli
