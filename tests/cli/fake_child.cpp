// A stand-in for the child, for the process-runner tests: `cli_fake_child WORKDIR` reads its session key
// from stdin and job.json and, for each case, writes {"event":"start"} and {"event":"launch"} (sealed, as
// the real child does) and then does what FAKE_CHILD_PLAN says for that case:
//   FAKE_CHILD_PLAN="0:done,1:segv,2:exit3"
//   done   write the done record                 segv      die of SIGSEGV
//   exit1  exit(1) mid-case                      exit3     write the done record, then exit(3)
//   hang   start a grandchild, then hang (both sleep; the grandchild's pid goes to WORKDIR/grandchild.pid)
//   simcrash  print a "[sim] crash: ..." line as the simulator does, then die of SIGSEGV
//   forge  append an unsealed done record, as learner code might, then the genuine one
//   twice  write the done record twice
//   spin   busy-loop forever on the CPU, as a kernel that hangs on the simulator does
//   slowdraw  take 1 s between "start" and "launch", as drawing a large case's inputs does, then done
// A case missing from the plan is done. Every process start is appended to WORKDIR/starts.
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "protocol.hpp"

namespace {

std::map<int, std::string> read_plan() {
  std::map<int, std::string> plan;
  const char* text = std::getenv("FAKE_CHILD_PLAN");
  std::stringstream items(text ? text : "");
  for (std::string item; std::getline(items, item, ',');) {
    const auto colon = item.find(':');
    if (colon != std::string::npos) plan[std::stoi(item.substr(0, colon))] = item.substr(colon + 1);
  }
  return plan;
}

void write_done(puzzle::protocol::ProgressWriter& progress, int index) {
  puzzle::protocol::CaseRecord record;
  record.case_index = index;
  progress.append(record);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;  // WORKDIR LEARNER.so, as the runner takes them (the .so is not loaded here)
  const std::filesystem::path dir = argv[1];
  std::string key;
  std::getline(std::cin, key);
  puzzle::protocol::ProgressWriter progress(puzzle::protocol::progress_path(dir),
                                            puzzle::protocol::SessionKey::parse(key).value());
  std::ifstream job_file(puzzle::protocol::job_path(dir));
  const auto job = nlohmann::json::parse(job_file).get<puzzle::protocol::Job>();
  std::ofstream(dir / "starts", std::ios::app) << getpid() << "\n";
  const auto plan = read_plan();
  for (int index : job.cases) {
    const std::string action = plan.contains(index) ? plan.at(index) : "done";
    progress.append({{"event", "start"}, {"case", index}});
    if (action == "slowdraw") sleep(1);
    progress.append({{"event", "launch"}, {"case", index}});
    std::printf("running case %d\n", index);
    std::fflush(stdout);
    if (action == "segv") raise(SIGSEGV);
    if (action == "exit1") std::exit(1);
    if (action == "simcrash") {
      std::fprintf(stderr,
                   "[sim] crash: SIGSEGV in kernel k, block (1,0,0), thread (2,0,0), pc 0x0, address 0x8\n");
      raise(SIGSEGV);
    }
    if (action == "spin") {
      for (volatile uint64_t turns = 0;; turns = turns + 1) {
      }
    }
    if (action == "hang") {
      if (const pid_t grandchild = fork(); grandchild == 0) {
        for (;;) pause();
      } else {
        std::ofstream(dir / "grandchild.pid") << grandchild << "\n";
      }
      for (;;) pause();
    }
    if (action == "forge")
      puzzle::protocol::append_line(puzzle::protocol::progress_path(dir),
                                    {{"event", "done"}, {"case", index}});
    write_done(progress, index);
    if (action == "twice") write_done(progress, index);
    if (action == "exit3") return 3;
  }
  progress.append({{"event", "end"}});
  return 0;
}
