// Running other programs: compilers and tools (output captured), and the child (its own process group,
// output to files, watched while it runs).
#pragma once
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace puzzle::cli {

struct ExitStatus {
  bool signaled = false;
  int code = 0;    // exit code, when !signaled
  int signal = 0;  // the signal that ended it, when signaled
  bool ok() const { return !signaled && code == 0; }
  std::string describe() const;     // "exit code 3", "signal SIGSEGV"
  std::string signal_name() const;  // "SIGSEGV"
};

// A process started in a process group of its own, so that it and everything it started can be killed
// together. The destructor kills the group if the process is still running.
class GroupProcess {
 public:
  // `stdin_text` is all its stdin gets (a pipe, written and closed before it starts).
  GroupProcess(const std::vector<std::string>& argv, const std::filesystem::path& stdout_file,
               const std::filesystem::path& stderr_file, const std::string& stdin_text = {});
  GroupProcess(const GroupProcess&) = delete;
  GroupProcess& operator=(const GroupProcess&) = delete;
  ~GroupProcess();

  std::optional<ExitStatus> poll();  // the exit status once it has ended, without blocking
  // The leader's user + system CPU time so far, whatever the machine's load (0 where /proc cannot say).
  std::chrono::milliseconds cpu_time() const;
  // SIGTERM to the group, `grace` to exit, then SIGKILL to the group.
  ExitStatus stop(std::chrono::milliseconds grace);

 private:
  ExitStatus reap();  // kills what is left of the group, then collects the leader
  pid_t pid_ = -1;
  std::optional<ExitStatus> status_;
};

struct CapturedRun {
  ExitStatus status;
  std::string output;  // stdout and stderr, interleaved as written (stdout only with StderrMode::discarded)
  bool timed_out = false;
  bool stopped = false;  // killed because `stop` was requested
};

enum class StderrMode { merged, discarded };  // discarded: for output that must be the program's data only

// Runs a program to completion and returns what it printed, or kills it when `stop` is requested (work
// started ahead of need that is no longer wanted). Throws std::runtime_error if it cannot be started at all.
CapturedRun run_captured(const std::vector<std::string>& argv,
                         std::optional<std::chrono::milliseconds> timeout = std::nullopt,
                         StderrMode stderr_mode = StderrMode::merged, std::stop_token stop = {});

// A process that answered and stays, idle, until it is let go: the GPU probe with --hold, whose CUDA context
// keeps the device open, so that the child's context starts and ends without the driver setting the device
// up and tearing it down (0.13 s of each GPU check on an H100, measured alone against beside a held one).
// Destroying it lets it go: its group is killed and collected on a thread of its own, so no one waits.
class HeldProcess {
 public:
  HeldProcess(pid_t pid, int stdin_fd) : pid_(pid), stdin_fd_(stdin_fd) {}
  HeldProcess(const HeldProcess&) = delete;
  HeldProcess& operator=(const HeldProcess&) = delete;
  ~HeldProcess();

 private:
  pid_t pid_;
  int stdin_fd_;  // its stdin's write end, kept open: it ends on its own if we die
};

// As run_captured, but returns as soon as `answered(output so far)` holds, the process still running: it is
// then in `held`, with its stdin an open pipe. Its stderr is discarded.
CapturedRun run_until_answered(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                               const std::function<bool(const std::string&)>& answered,
                               std::unique_ptr<HeldProcess>& held);

// On SIGINT, SIGTERM or SIGHUP, kill the running child's group before dying, so nothing is left behind.
void kill_children_on_interrupt();

}  // namespace puzzle::cli
