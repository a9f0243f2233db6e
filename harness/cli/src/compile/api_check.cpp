#include "compile/api_check.hpp"

#include <cctype>
#include <cstring>
#include <map>
#include <set>

#include "support/demangle.hpp"

namespace puzzle::cli {
namespace {

constexpr const char* kProcess =
    "ends or replaces the process, or runs code at its exit: the harness must see every case to its end";
constexpr const char* kFiles =
    "reads or writes files or file descriptors: the harness's records and outputs are its own";
constexpr const char* kEnvironment = "reads the environment or stdin, where only the harness's settings are";
constexpr const char* kLoader = "finds code or symbols at run time: a submission uses only the CUDA runtime";
constexpr const char* kStartup = "runs code before main() or after it returns: only the launcher may run";
constexpr const char* kHostMemory =
    "gives kernels host memory (or the host device memory outside cudaMalloc): outputs must be written to "
    "the "
    "buffers the launcher gets, and scratch memory comes from cudaMalloc, which the harness measures";
constexpr const char* kDeferred =
    "runs host code after the launcher returns: the harness reads the outputs then; compute them in kernels";
constexpr const char* kMain =
    "defines or calls main(): the harness's runner is the program, yours is the launcher";
constexpr const char* kHarness = "names the harness's own code: a submission cannot call its references";
constexpr const char* kStreams =
    "warning: work on a stream of your own must be finished (or waited for by the default stream) before the "
    "launcher returns; the harness checks";

// The APIs by name. Where a plain word could be a variable ("open", "write", "exit"), only a call counts.
struct Rule {
  const char* why;
  bool call_only;
  bool refused = true;
  bool std_only = false;
};
const std::map<std::string, Rule>& rules() {
  static const std::map<std::string, Rule> table = [] {
    std::map<std::string, Rule> t;
    const auto add = [&](const char* why, bool call_only, std::initializer_list<const char*> names,
                         bool refused = true) {
      for (const char* name : names) t[name] = {why, call_only, refused};
    };
    add(kProcess, false,
        {"atexit",         "at_quick_exit", "on_exit",       "quick_exit",   "_Exit",          "_exit",
         "abort",          "terminate",     "set_terminate", "fork",         "vfork",          "execv",
         "execve",         "execvp",        "execvpe",       "execl",        "execle",         "execlp",
         "fexecve",        "popen",         "posix_spawn",   "posix_spawnp", "pthread_create", "pthread_exit",
         "raise",          "sigaction",     "longjmp",       "siglongjmp",   "prctl",          "ptrace",
         "cudaDeviceReset"});
    add(kProcess, true, {"exit", "system", "kill", "signal", "clone"});
    add(kFiles, false,
        {"fopen", "fopen64", "freopen", "fdopen", "tmpfile", "openat", "creat", "ofstream", "ifstream",
         "fstream", "filebuf", "filesystem", "unlink", "unlinkat", "ftruncate", "truncate", "dup", "dup2",
         "dup3", "mmap", "mprotect", "pwrite", "pread", "syscall", "ioctl", "fcntl", "opendir", "readdir",
         // streams of one's own in memory, or stdout's buffer: what kernels print, read back
         "fmemopen", "open_memstream", "fopencookie", "setvbuf", "setbuf", "setbuffer", "setlinebuf"});
    add(kFiles, true, {"open", "write", "read", "close", "remove", "rename", "writev", "readv", "lseek"});
    add(kEnvironment, false,
        {"getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "environ", "stdin", "cin", "scanf",
         "fscanf", "getchar", "fgets", "fread", "getline", "getdelim"});
    add(kLoader, false,
        {"dlopen", "dlsym", "dlvsym", "dlmopen", "dl_iterate_phdr", "cudaGetDriverEntryPoint",
         "cudaGetDriverEntryPointByVersion", "cuGetProcAddress", "cudaGetFuncBySymbol"});
    add(kStartup, false, {"constructor", "destructor", "init_priority", "section"});
    add(kMain, false, {"main"});
    add(kHostMemory, false,
        {"cudaHostAlloc", "cudaMallocHost", "cudaHostRegister", "cudaHostGetDevicePointer",
         "cudaMallocManaged", "__managed__", "cudaMallocAsync", "cudaMallocFromPoolAsync", "cudaMallocPitch",
         "cudaMalloc3D", "cudaMallocArray", "cudaMalloc3DArray", "cuMemAlloc", "cuMemCreate"});
    add(kDeferred, false, {"cudaLaunchHostFunc", "cudaStreamAddCallback", "pthread_create"});
    for (const char* name : {"thread", "jthread", "async"}) t[name] = {kDeferred, false, true, true};
    add(kHarness, false, {"puzzle"});
    add(kStreams, false, {"cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority"},
        false);
    // Allowed after all: the CUDA_CHECK macro of many courses (and llm.c) exits on an error, and a process
    // that ends before the harness's last record is a crash of its case all the same.
    t.erase("exit");
    t.erase("abort");
    return t;
  }();
  return table;
}

// `text` with comments, string and character literals blanked (newlines kept, so lines still count).
std::string code_only(const std::string& text) {
  std::string code = text;
  enum { plain, line_comment, block_comment, string, character } state = plain;
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = text[i], next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (state) {
      case plain:
        if (c == '/' && next == '/') state = line_comment;
        if (c == '/' && next == '*') state = block_comment, code[i + 1] = ' ', ++i;
        if (c == '"') state = string;
        if (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1]))))
          state = character;
        if (state != plain) code[i] = ' ';
        break;
      case line_comment:
        if (c == '\n')
          state = plain;
        else
          code[i] = ' ';
        break;
      case block_comment:
        if (c == '*' && next == '/') state = plain, code[i + 1] = ' ', ++i;
        if (c != '\n') code[i] = ' ';
        break;
      case string:
      case character:
        if (c == '\\') {
          code[i] = ' ';
          if (next != '\n') code[++i] = ' ';
          break;
        }
        if (c == (state == string ? '"' : '\'')) state = plain;
        if (c != '\n') code[i] = ' ';
        break;
    }
  }
  return code;
}

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `x.name`, `p->name` or `Scope::name` (Scope not std): someone else's name, not the API's.
bool qualified_by_other_than_std(const std::string& code, size_t at) {
  if (at > 0 && code[at - 1] == '.') return true;
  if (at > 1 && code.compare(at - 2, 2, "->") == 0) return true;
  if (at < 2 || code.compare(at - 2, 2, "::") != 0) return false;
  size_t scope = at - 2;
  while (scope > 0 && is_word(code[scope - 1])) --scope;
  return scope < at - 2 && code.compare(scope, at - 2 - scope, "std") != 0;
}

// Whether `at` is on an `#include` line.
bool in_include(const std::string& code, size_t at) {
  const size_t line = code.rfind('\n', at);
  const size_t start = code.find_first_not_of(" \t", line == std::string::npos ? 0 : line + 1);
  return start != std::string::npos && code[start] == '#' && code.find("include", start) < at;
}

// `void write(`: the file declares a function of that name (its own), rather than calling the API.
bool declared(const std::string& code, size_t at) {
  size_t end = at;
  while (end > 0 && std::isspace(static_cast<unsigned char>(code[end - 1]))) --end;
  size_t begin = end;
  while (begin > 0 && is_word(code[begin - 1])) --begin;
  const std::string before = code.substr(begin, end - begin);
  return !before.empty() && before != "return" && before != "else" && before != "do";
}

// open64 -> open, dup2 -> dup.
std::string without_trailing_digits(std::string name) {
  while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.back()))) name.pop_back();
  return name;
}

// What a name says once glibc's other spellings of one function are taken off: __open and open64 (open),
// __open_2 and __read_chk (the fortified ones), fread_unlocked, __isoc99_fscanf, cuMemAlloc_v2.
std::string base_name(std::string name) {
  name.erase(0, name.find_first_not_of('_'));
  for (const char* prefix : {"isoc99_", "isoc23_"}) {
    if (name.starts_with(prefix)) name.erase(0, std::strlen(prefix));
  }
  for (bool again = true; again;) {
    again = false;
    for (const char* suffix : {"_chk", "_2", "_unlocked", "_nocancel", "_v2"}) {
      if (name.size() > std::strlen(suffix) && name.ends_with(suffix)) {
        name.resize(name.size() - std::strlen(suffix));
        again = true;
      }
    }
  }
  return without_trailing_digits(name);
}

// The words of the C library's names that read or write files: a name that joins one to others
// (aio_read, process_vm_readv, copy_file_range, fts_open) is refused too.
bool file_word(const std::string& word) {
  static const std::set<std::string> words = {
      "open",       "openat",    "fopen", "fdopen",  "freopen", "opendir",    "fdopendir",   "scandir",
      "readdir",    "read",      "readv", "pread",   "preadv",  "preadv64v2", "fread",       "readlink",
      "readlinkat", "readahead", "write", "writev",  "pwrite",  "pwritev",    "pwritev64v2", "sendfile",
      "splice",     "vmsplice",  "creat", "tmpfile", "file",    "mmap"};
  return words.contains(word) || words.contains(without_trailing_digits(word));
}

const char* refused_c_symbol(const std::string& name) {
  // nvcc's registration of a GPU object calls atexit; records written at exit are refused at run time.
  if (name == "atexit") return nullptr;
  if (name.starts_with("_IO_")) return kFiles;  // the C library's streams, from the inside
  for (const std::string& spelling : {name, base_name(name)}) {
    const auto rule = rules().find(spelling);
    if (rule != rules().end() && rule->second.refused && !rule->second.std_only) return rule->second.why;
  }
  // Compilers' and runtimes' own names start with an underscore: __cxa_atexit, __tsan_read4.
  if (name.starts_with("_")) return nullptr;
  for (size_t start = 0; start < name.size();) {
    const size_t end = std::min(name.find('_', start), name.size());
    if (file_word(name.substr(start, end - start))) return kFiles;
    start = end + 1;
  }
  return nullptr;
}

}  // namespace

const char* refused_api_symbol(const std::string& symbol) {
  if (symbol.find("operator") != std::string::npos) return nullptr;  // `<` there is no template
  std::string name = without_template_arguments(symbol);
  name.erase(0, name.rfind(' ') + 1);  // a function template's return type
  if (name.find("::") == std::string::npos) return refused_c_symbol(name);
  std::vector<std::string> parts;
  for (size_t start = 0; start <= name.size();) {
    const size_t end = std::min(name.find("::", start), name.size());
    parts.push_back(name.substr(start, end - start));
    start = end + 2;
  }
  // The harness's own code: its runner, and the calls that steer the simulator from it (sim::harness
  // reopens device memory, clears findings, copies without checks).
  if (parts[0] == "puzzle" || (parts[0] == "sim" && parts[1] == "harness")) return kHarness;
  if ((parts[0] != "std" && parts[0] != "__gnu_cxx") || parts.size() < 2) return nullptr;
  std::string word = parts[1] == "__cxx11" && parts.size() > 2 ? parts[2] : parts[1];
  static const std::map<std::string, std::string> streams = {
      {"basic_ifstream", "ifstream"}, {"basic_ofstream", "ofstream"}, {"basic_fstream", "fstream"},
      {"basic_filebuf", "filebuf"},   {"stdio_filebuf", "filebuf"},   {"stdio_sync_filebuf", "filebuf"}};
  if (const auto stream = streams.find(word); stream != streams.end()) word = stream->second;
  // The compiler calls std::terminate itself where an exception would leave a noexcept function.
  if (word == "terminate") return nullptr;
  const auto rule = rules().find(word);
  return rule != rules().end() && rule->second.refused ? rule->second.why : nullptr;
}

std::vector<ApiUse> find_api_uses(const std::string& text) {
  const std::string code = code_only(text);
  // `#include <fstream>` and friends: the header's name is a word like any other here.
  std::vector<ApiUse> uses;
  int line = 1;
  for (size_t i = 0; i < code.size();) {
    if (code[i] == '\n') ++line;
    if (!is_word(code[i]) || (i > 0 && is_word(code[i - 1]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < code.size() && is_word(code[end])) ++end;
    const std::string word = code.substr(i, end - i);
    // glibc's FILE from the inside (stdout->_IO_write_base): what kernels printed, read back.
    if (word.starts_with("_IO_")) uses.push_back({line, word, kFiles, true});
    const auto rule = rules().find(word);
    if (rule != rules().end() && !std::isdigit(static_cast<unsigned char>(word[0]))) {
      size_t after = end;
      while (after < code.size() && (code[after] == ' ' || code[after] == '\t')) ++after;
      const bool member = qualified_by_other_than_std(code, i);
      const bool parenthesis = after < code.size() && code[after] == '(';
      const bool called = parenthesis && !declared(code, i);
      // `main` only as a definition or call; the harness's namespace only when named as one; words that
      // make good variable names (thread, async) only as std:: names or headers.
      const bool harness_scope = (after + 1 < code.size() && code.compare(after, 2, "::") == 0) ||
                                 (i >= 10 && code.compare(i - 10, 10, "namespace ") == 0);
      const bool std_name = (i > 4 && code.compare(i - 5, 5, "std::") == 0) || in_include(code, i);
      const bool relevant = word == "puzzle"         ? harness_scope
                            : word == "main"         ? parenthesis && !member
                            : rule->second.std_only  ? std_name
                            : rule->second.call_only ? called && !member
                                                     : !member;
      if (relevant) uses.push_back({line, word, rule->second.why, rule->second.refused});
    }
    i = end;
  }
  return uses;
}

std::string describe(const ApiUse& use) {
  return "line " + std::to_string(use.line) + ": `" + use.name + "` " + use.why;
}

BuildInfo check_apis(const std::string& text) {
  BuildInfo info{.ok = true};
  for (const ApiUse& use : find_api_uses(text)) {
    info.log += describe(use) + "\n";
    if (use.refused && info.ok) {
      info.ok = false;
      info.message = "refused: " + describe(use);
    }
  }
  return info;
}

}  // namespace puzzle::cli
