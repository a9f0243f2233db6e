// The one-line crash and timeout reports. Each scenario runs in a child process: this test program
// again, running only a skipped "scenario" test case.
#include <cuda_runtime.h>
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Child {
  pid_t pid;
  int stderr_fd;
};

// Runs the scenario test case `name` of this program in a child, its stderr on a pipe.
Child start_scenario(const std::string& name) {
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE(length > 0);
  self[length] = '\0';
  const std::string filter = "--test-case=" + name;  // built before fork: the child only execs
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    execl(self, self, filter.c_str(), "--no-skip", "--no-run-summary", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(pipe_fds[1]);
  return Child{pid, pipe_fds[0]};
}

// Reads the child's stderr until it contains `marker` (or ends); returns what was read.
std::string read_until(int fd, const std::string& marker) {
  std::string text;
  char buffer[4096];
  while (text.find(marker) == std::string::npos) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  return text;
}

struct Outcome {
  int status;
  std::string stderr_text;
};

Outcome finish(const Child& child, std::string text = {}) {
  text += read_until(child.stderr_fd, "\x01");  // everything, up to EOF
  close(child.stderr_fd);
  int status = 0;
  waitpid(child.pid, &status, 0);
  return Outcome{status, text};
}

std::string line_with(const std::string& text, const std::string& prefix) {
  const size_t start = text.find(prefix);
  if (start == std::string::npos) return {};
  return text.substr(start, text.find('\n', start) - start);
}

// What addr2line says about `pc` (an offset in this executable): "file:line".
std::string symbolize(const std::string& pc) {
  const std::string command = "addr2line -e /proc/" + std::to_string(getpid()) + "/exe " + pc;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096] = "";
  if (pipe) {
    if (!fgets(buffer, sizeof buffer, pipe)) buffer[0] = '\0';
    pclose(pipe);
  }
  return buffer;
}

// Thread (3,0,0) of block (1,0,0) writes through `bad`, every other thread through `good`.
void write_through(int* bad, int* good) {
  int* target = blockIdx.x == 1 && threadIdx.x == 3 ? bad : good;
  target[threadIdx.x] = 1;
}

int recurse(int depth) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  return depth == 0 ? 0 : recurse(depth - 1) + frame[0];
}

void overflow_stack(int* out) {
  out[0] = recurse(1 << 20);
}

void spin(volatile int* flag) {
  fprintf(stderr, "spinning\n");
  while (*flag == 0) {
  }
}

}  // namespace

TEST_CASE("scenario: null pointer in a kernel" * doctest::skip()) {
  int* null = std::getenv("SIM_NEVER_SET") ? new int[8] : nullptr;  // the compiler cannot see it is null
  static int good[8];
  int* g = good;
  ::sim::launch(::sim::LaunchConfig(2, 8), "write_through", [=]() { write_through(null, g); });
}

TEST_CASE("scenario: stack overflow in a kernel" * doctest::skip()) {
  int out = 0;
  int* p = &out;
  ::sim::launch(::sim::LaunchConfig(1, 1), "overflow_stack", [=]() { overflow_stack(p); });
}

TEST_CASE("scenario: kernel that never ends" * doctest::skip()) {
  static int flag = 0;
  volatile int* f = &flag;
  ::sim::launch(::sim::LaunchConfig(1, 4), "spin", [=]() { spin(f); });
}

TEST_CASE("scenario: null pointer in host code" * doctest::skip()) {
  volatile int* null = std::getenv("SIM_NEVER_SET") ? new int : nullptr;
  *null = 1;
}

TEST_CASE("a crash in a kernel names the kernel, block, thread and a PC addr2line understands") {
  const Outcome outcome = finish(start_scenario("scenario: null pointer in a kernel"));
  CHECK(WIFSIGNALED(outcome.status));
  CHECK(WTERMSIG(outcome.status) == SIGSEGV);
  const std::string line = line_with(outcome.stderr_text, "[sim] crash:");
  CAPTURE(outcome.stderr_text);
  CHECK(line.find("[sim] crash: SIGSEGV in kernel write_through, block (1,0,0), thread (3,0,0), pc 0x") == 0);
  CHECK(line.find(", address 0xc") != std::string::npos);  // &null[3]
  const size_t pc = line.find("pc ") + 3;
  CHECK(symbolize(line.substr(pc, line.find(',', pc) - pc)).find("test_core_crash.cpp") != std::string::npos);
}

TEST_CASE("a fiber stack overflow is reported as one") {
  const Outcome outcome = finish(start_scenario("scenario: stack overflow in a kernel"));
  CHECK(WIFSIGNALED(outcome.status));
  const std::string line = line_with(outcome.stderr_text, "[sim] crash:");
  CAPTURE(outcome.stderr_text);
  CHECK(line.find("[sim] crash: SIGSEGV in kernel overflow_stack, block (0,0,0), thread (0,0,0)") == 0);
  CHECK(line.find(", stack overflow") != std::string::npos);
}

TEST_CASE("SIGTERM says what each host thread was running, then exits with 124") {
  const Child child = start_scenario("scenario: kernel that never ends");
  const std::string before = read_until(child.stderr_fd, "spinning");
  REQUIRE(before.find("spinning") != std::string::npos);
  kill(child.pid, SIGTERM);
  const Outcome outcome = finish(child, before);
  CHECK(WIFEXITED(outcome.status));
  CHECK(WEXITSTATUS(outcome.status) == 124);
  CAPTURE(outcome.stderr_text);
  const std::string line = line_with(outcome.stderr_text, "[sim] timeout:");
  CHECK(line.starts_with("[sim] timeout: kernel spin still running; block (0,0,0) thread (0,0,0) was executing"));
  // Where it is stuck: its last memory access (the source line where symbols resolve, else the pc).
  CHECK(line.find(", its last memory access: ") != std::string::npos);
}

TEST_CASE("a crash in host code says so") {
  const Outcome outcome = finish(start_scenario("scenario: null pointer in host code"));
  CHECK(WIFSIGNALED(outcome.status));
  CAPTURE(outcome.stderr_text);
  CHECK(line_with(outcome.stderr_text, "[sim] crash:").find("[sim] crash: SIGSEGV in host code, pc 0x") == 0);
}
