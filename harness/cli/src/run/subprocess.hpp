// Running other programs: compilers and tools (output captured), and the child (its own process group,
// output to files, watched while it runs).
#pragma once
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
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
};

enum class StderrMode { merged, discarded };  // discarded: for output that must be the program's data only

// Runs a program to completion and returns what it printed. Throws std::runtime_error if it cannot
// be started at all.
CapturedRun run_captured(const std::vector<std::string>& argv,
                         std::optional<std::chrono::milliseconds> timeout = std::nullopt,
                         StderrMode stderr_mode = StderrMode::merged);

// On SIGINT, SIGTERM or SIGHUP, kill the running child's group before dying, so nothing is left behind.
void kill_children_on_interrupt();

}  // namespace puzzle::cli
