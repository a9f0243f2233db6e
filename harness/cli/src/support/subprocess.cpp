#include "support/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace puzzle::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPollInterval = std::chrono::milliseconds(10);

// Process groups alive right now, for the interrupt handler (which may only touch atomics).
std::array<std::atomic<pid_t>, 8> live_groups{};

void remember_group(pid_t pgid) {
  for (auto& slot : live_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) return;
  }
}

void forget_group(pid_t pgid) {
  for (auto& slot : live_groups) {
    pid_t expected = pgid;
    slot.compare_exchange_strong(expected, 0);
  }
}

extern "C" void kill_groups_and_die(int sig) {
  for (auto& slot : live_groups) {
    if (pid_t pgid = slot.load(); pgid > 0) killpg(pgid, SIGKILL);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

class SpawnSetup {
 public:
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attr_);
    // Own process group; default signal handling and an empty mask whatever the parent has.
    posix_spawnattr_setflags(&attr_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr_, 0);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr_, &all);
    posix_spawnattr_setsigmask(&attr_, &none);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  void redirect_to_file(int fd, const std::filesystem::path& file) {
    posix_spawn_file_actions_addopen(&actions_, fd, file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  void redirect_to_fd(int fd, int target) { posix_spawn_file_actions_adddup2(&actions_, target, fd); }
  void close_in_child(int fd) { posix_spawn_file_actions_addclose(&actions_, fd); }

  pid_t spawn(const std::vector<std::string>& argv) {
    if (argv.empty()) throw std::runtime_error("internal error: empty command line");
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    if (int err = posix_spawnp(&pid, args[0], &actions_, &attr_, args.data(), environ); err != 0) {
      throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(err));
    }
    remember_group(pid);
    return pid;
  }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
};

ExitStatus decode(int wait_status) {
  ExitStatus s;
  if (WIFSIGNALED(wait_status)) {
    s.signaled = true;
    s.signal = WTERMSIG(wait_status);
  } else {
    s.code = WEXITSTATUS(wait_status);
  }
  return s;
}

// True once the process has ended; it stays a zombie (its pid, and so its group id, stay taken).
bool has_ended(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

ExitStatus kill_group_and_reap(pid_t pid) {
  killpg(pid, SIGKILL);  // whatever it started and left running
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  forget_group(pid);
  return decode(wait_status);
}

}  // namespace

std::string ExitStatus::signal_name() const {
  const char* name = sigabbrev_np(signal);
  return name ? std::string("SIG") + name : std::to_string(signal);
}

std::string ExitStatus::describe() const {
  return signaled ? "signal " + signal_name() : "exit code " + std::to_string(code);
}

GroupProcess::GroupProcess(const std::vector<std::string>& argv, const std::filesystem::path& stdout_file,
                           const std::filesystem::path& stderr_file, const std::string& stdin_text) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  // A few bytes: they fit in the pipe's buffer, so writing cannot block before the child reads.
  const bool written =
      write(fds[1], stdin_text.data(), stdin_text.size()) == static_cast<ssize_t>(stdin_text.size());
  close(fds[1]);
  if (!written) {
    close(fds[0]);
    throw std::runtime_error("cannot hand the child its stdin");
  }
  try {
    SpawnSetup setup;
    setup.redirect_to_fd(STDIN_FILENO, fds[0]);
    setup.redirect_to_file(STDOUT_FILENO, stdout_file);
    setup.redirect_to_file(STDERR_FILENO, stderr_file);
    pid_ = setup.spawn(argv);
  } catch (...) {
    close(fds[0]);
    throw;
  }
  close(fds[0]);
}

GroupProcess::~GroupProcess() {
  if (!status_) reap();
}

ExitStatus GroupProcess::reap() {
  status_ = kill_group_and_reap(pid_);
  return *status_;
}

std::optional<ExitStatus> GroupProcess::poll() {
  if (!status_ && has_ended(pid_)) reap();
  return status_;
}

std::chrono::milliseconds GroupProcess::cpu_time() const {
  std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
  std::string text;
  std::getline(stat, text);
  // Fields 14 and 15 (utime, stime, in clock ticks) follow the command name, which may hold spaces: count
  // from its closing parenthesis, after which come fields 3, 4, ...
  const size_t end_of_name = text.rfind(')');
  if (end_of_name == std::string::npos) return std::chrono::milliseconds(0);
  std::istringstream fields(text.substr(end_of_name + 1));
  std::string skipped;
  for (int field = 3; field < 14; ++field) fields >> skipped;
  long long user_ticks = 0, system_ticks = 0;
  if (!(fields >> user_ticks >> system_ticks)) return std::chrono::milliseconds(0);
  return std::chrono::milliseconds((user_ticks + system_ticks) * 1000 / sysconf(_SC_CLK_TCK));
}

ExitStatus GroupProcess::stop(std::chrono::milliseconds grace) {
  if (status_) return *status_;
  killpg(pid_, SIGTERM);
  const auto deadline = Clock::now() + grace;
  while (!has_ended(pid_) && Clock::now() < deadline) std::this_thread::sleep_for(kPollInterval);
  return reap();
}

namespace {

// Appends what fd gives to run.output until its end, the deadline (then run.timed_out), a stop request
// (then run.stopped) or `answered`. Returns whether `answered` held.
bool read_output(int fd, std::optional<Clock::time_point> deadline,
                 const std::function<bool(const std::string&)>& answered, CapturedRun& run,
                 const std::stop_token& stop = {}) {
  pollfd pfd{fd, POLLIN, 0};
  std::array<char, 4096> chunk;
  // A stop request is seen within this.
  const int64_t wait_ms = stop.stop_possible() ? 50 : 1000;
  for (;;) {
    const auto left = deadline
                          ? std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now())
                          : std::chrono::milliseconds(wait_ms);
    if (left.count() <= 0) {
      run.timed_out = true;
      return false;
    }
    if (stop.stop_requested()) {
      run.stopped = true;
      return false;
    }
    if (::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), wait_ms))) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (pfd.revents == 0) continue;
    const ssize_t n = read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // EOF: every writer is gone
    run.output.append(chunk.data(), static_cast<size_t>(n));
    if (answered && answered(run.output)) return true;
  }
}

}  // namespace

CapturedRun run_captured(const std::vector<std::string>& argv,
                         std::optional<std::chrono::milliseconds> timeout, StderrMode stderr_mode,
                         std::stop_token stop) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  pid_t pid = -1;
  try {
    SpawnSetup setup;
    setup.redirect_to_fd(STDOUT_FILENO, fds[1]);
    if (stderr_mode == StderrMode::merged) {
      setup.redirect_to_fd(STDERR_FILENO, fds[1]);
    } else {
      setup.redirect_to_file(STDERR_FILENO, "/dev/null");
    }
    setup.close_in_child(fds[0]);
    pid = setup.spawn(argv);
  } catch (...) {
    close(fds[0]);
    close(fds[1]);
    throw;
  }
  close(fds[1]);

  CapturedRun run;
  read_output(fds[0], timeout ? std::optional(Clock::now() + *timeout) : std::nullopt, {}, run, stop);
  close(fds[0]);
  if (run.timed_out || run.stopped) killpg(pid, SIGKILL);
  run.status = kill_group_and_reap(pid);
  return run;
}

CapturedRun run_until_answered(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                               const std::function<bool(const std::string&)>& answered,
                               std::unique_ptr<HeldProcess>& held) {
  int out[2], in[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(in, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  pid_t pid = -1;
  try {
    SpawnSetup setup;
    setup.redirect_to_fd(STDIN_FILENO, in[0]);
    setup.redirect_to_fd(STDOUT_FILENO, out[1]);
    setup.redirect_to_file(STDERR_FILENO, "/dev/null");
    pid = setup.spawn(argv);
  } catch (...) {
    for (int fd : {out[0], out[1], in[0], in[1]}) close(fd);
    throw;
  }
  close(out[1]);
  close(in[0]);

  CapturedRun run;
  const bool answered_in_time = read_output(out[0], Clock::now() + timeout, answered, run);
  close(out[0]);
  if (answered_in_time && !has_ended(pid)) {
    held = std::make_unique<HeldProcess>(pid, in[1]);
    return run;  // status: running, ok
  }
  close(in[1]);
  run.status = kill_group_and_reap(pid);
  return run;
}

HeldProcess::~HeldProcess() {
  close(stdin_fd_);
  std::thread([pid = pid_] { kill_group_and_reap(pid); }).detach();
}

void kill_children_on_interrupt() {
  struct sigaction action {};
  action.sa_handler = kill_groups_and_die;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &action, nullptr);
}

}  // namespace puzzle::cli
