// The scan's rules on the symbols of the compiled code (compile/api_check.hpp, refused_api_symbol): the
// spellings a macro or a library's other names give an API are refused, and what honest files need is not
// (the symbols below are those the tree's solutions and kernels need, on both backends).
#include <doctest/doctest.h>

#include <string>

#include "compile/api_check.hpp"

using puzzle::cli::check_apis;
using puzzle::cli::refused_api_symbol;

TEST_CASE("the compiled code's symbols: every spelling of a refused API is refused") {
  const char* refused[] = {
      "fopen",
      "fopen64",
      "__open_2",
      "__open64",
      "open64",
      "openat",
      "read",
      "__read_chk",
      "fread",
      "fread_unlocked",
      "__fread_chk",
      "__isoc99_fscanf",
      "_IO_fopen",
      "_IO_file_read",
      "aio_read",
      "process_vm_readv",
      "preadv64v2",
      "copy_file_range",
      "mmap64",
      "getenv",
      "secure_getenv",
      "environ",
      "__environ",
      "stdin",
      "system",
      "popen",
      "dlopen",
      "pthread_create",
      "cuMemAlloc_v2",
      "std::basic_ifstream<char, std::char_traits<char> >::basic_ifstream",
      "VTT for std::basic_ifstream<char, std::char_traits<char> >",
      "std::basic_filebuf<char, std::char_traits<char> >::open",
      "__gnu_cxx::stdio_filebuf<char, std::char_traits<char> >::stdio_filebuf",
      "std::filesystem::__cxx11::path::_M_split_cmpts",
      "std::thread::_M_start_thread",
      "std::basic_istream<char, std::char_traits<char> >& std::getline<char, std::char_traits<char>, "
      "std::allocator<char> >",
      "std::cin",
      "puzzle::protocol::read_floats_into",
      "sim::harness::launcher_returned",
      "sim::harness::runner_copy",
  };
  for (const char* symbol : refused) {
    CAPTURE(symbol);
    CHECK(refused_api_symbol(symbol) != nullptr);
  }
}

TEST_CASE("the compiled code's symbols: what compilers, runtimes and honest files need is not refused") {
  const char* allowed[] = {
      "atexit",  // nvcc's registration of a GPU object
      "exit",
      "abort",
      "__cxa_atexit",
      "__cxa_thread_atexit",
      "__cxa_guard_acquire",
      "__tsan_read4",
      "__tsan_volatile_write8",
      "__tsan_unaligned_read16",
      "__cudaRegisterFatBinary",
      "__cudaLaunchKernel",
      "__libc_single_threaded",
      "pthread_mutex_lock",
      "pthread_once",
      "printf",
      "fprintf",
      "snprintf",
      "fwrite",
      "fputs",
      "fclose",
      "fflush",
      "stderr",
      "expf",
      "memcpy",
      "cudaMalloc",
      "cudaMemcpy",
      "cuTensorMapEncodeTiled",
      "sim_running_thread_idx",
      "_Unwind_Resume",
      "std::terminate",
      "std::__throw_length_error",
      "std::ios_base::Init::Init",
      "std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >",
      "std::chrono::_V2::steady_clock::now",
      "sim::memory::on_atomic",
      "sim::memory::register_device_variable",
      "sim::ptx::execute",
      "sim::launch_kernel",
      "operator new",
  };
  for (const char* symbol : allowed) {
    CAPTURE(symbol);
    CHECK(refused_api_symbol(symbol) == nullptr);
  }
}

TEST_CASE("the scan of the source refuses glibc's FILE from the inside and stdout's buffering") {
  // What kernels print passes through stdout: host code must not read it back.
  CHECK_FALSE(check_apis("void f() { const char* p = stdout->_IO_write_base; }\n").ok);
  CHECK_FALSE(check_apis("char buffer[4096];\nvoid f() { setvbuf(stdout, buffer, _IOFBF, 4096); }\n").ok);
  CHECK_FALSE(check_apis("void f() { FILE* s = fmemopen(nullptr, 64, \"w\"); }\n").ok);
  CHECK(check_apis("void f() { printf(\"%d\\n\", 1); fflush(stdout); }\n").ok);
}
