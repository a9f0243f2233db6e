// The child: `child WORKDIR LEARNER.so` runs the cases of WORKDIR/job.json through the learner's launcher
// and writes what came out (protocol.hpp). One source for the GPU and the simulator; backend_*.cpp hold
// the differences. It prints nothing to stdout, which belongs to the learner's printf.
// The learner's code is a shared object loaded here, in main(), once the session key has been read and
// stdin closed: none of it, static constructors included, runs while the key can still be read.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backend.hpp"
#include "case_data.hpp"
#include "cuda_error.hpp"
#include "guarded_buffer.hpp"
#include "launcher.hpp"
#include "protocol.hpp"
#include "registry.hpp"
#ifndef PUZZLE_SIM
#include "bench.hpp"
#endif

namespace puzzle::child {
namespace {

namespace fs = std::filesystem;

// Exit codes the parent tells apart: 3 means "the CUDA context died; restart me for the rest".
constexpr int kExitHarnessError = 2;
constexpr int kExitContextDead = 3;

void* learner_launcher = nullptr;  // set by load_learner_code

protocol::Job read_job(const fs::path& dir) {
  std::ifstream in(protocol::job_path(dir));
  if (!in) throw std::runtime_error("cannot read " + protocol::job_path(dir).string());
  const protocol::Job job = nlohmann::json::parse(in).get<protocol::Job>();
  if (job.mode != "check" && job.mode != "bench" && job.mode != "sweep")
    throw std::runtime_error("unknown mode " + job.mode);
  if (job.estimate && job.mode == "bench") throw std::runtime_error("an estimate does not time");
  if (!job.backend.empty() && job.backend != kBackend) {
    throw std::runtime_error(std::string("a job for the ") + job.backend + " backend given to the " +
                             kBackend + " child");
  }
  return job;
}

std::vector<GuardedBuffer> allocate(const std::vector<BufferSpec>& specs, const Params& params) {
  std::vector<GuardedBuffer> buffers;
  for (const BufferSpec& spec : specs) buffers.emplace_back(spec.name, spec.elements(params), spec.dtype);
  return buffers;
}

// A sticky error (illegal address, misaligned address, launch failure, hardware errors) leaves the
// context unusable: every later call fails with it, even after cudaGetLastError has returned it.
bool context_alive() {
  return cudaDeviceSynchronize() == cudaSuccess;
}

// A kernel that skips work looks fast: the sweep reports how much of each output it left unwritten.
int64_t count_unwritten(const std::vector<GuardedBuffer>& outputs) {
  int64_t unwritten = 0;
  for (const GuardedBuffer& out : outputs) {
    const std::vector<float> image = out.download();
    for (int64_t i = 0; i < out.elements(); ++i) {
      unwritten += std::bit_cast<uint32_t>(image[protocol::kGuardElems + i]) == protocol::kPoisonBits;
    }
  }
  return unwritten;
}

#ifndef PUZZLE_SIM
// Bench mode, after the correctness run; returns false when the CUDA context died while timing.
bool time_case(const protocol::Job& job, const LaunchArgs& args, const std::vector<GuardedBuffer>& inputs,
               const std::vector<GuardedBuffer>& outputs, protocol::CaseRecord& record) {
  const cudaError_t error = time_launcher(job, args, inputs, outputs, record);
  if (error == cudaSuccess) return true;
  record.launch_error = "while timing: " + describe(error);
  return context_alive();
}
#endif

// PUZZLE_TIMING=1: where each case's time goes in the child, one line per case on stderr (the parent
// prints its own side). For the people who speed the harness up; a learner has no use for it.
class StepClock {
 public:
  explicit StepClock(const std::string& name) : name_(name), on_(std::getenv("PUZZLE_TIMING") != nullptr) {}
  void lap(const char* step) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    line_ +=
        " " + std::string(step) + " " + std::to_string(std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }
  ~StepClock() {
    if (on_) std::fprintf(stderr, "[timing] child, case %s (s):%s\n", name_.c_str(), line_.c_str());
  }

 private:
  std::string name_, line_;
  bool on_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

const std::vector<TestCase>& case_list(const PuzzleSpec& puzzle, const protocol::Job& job) {
  return job.mode == "sweep" ? puzzle.sweep : puzzle.cases;
}

// The parent's inputs for the case, once it has written them all (it draws them while the child is built).
void wait_for_parent_inputs(const fs::path& dir, int index) {
  const auto ready = protocol::inputs_ready_path(dir, index);
  while (!fs::exists(ready)) {
    if (fs::exists(protocol::inputs_failed_path(dir)))
      throw std::runtime_error("the harness could not prepare the inputs (its error is in the report)");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The host images of a case's buffers, guards included, kept from case to case: a large case's are
// hundreds of megabytes, and fresh memory costs its page faults (and zeroing) every time.
struct HostImages {
  std::vector<std::vector<float>> inputs, outputs;
};

// The host images sized for the job's largest buffers, made on a thread of their own while the first
// (small) cases run: touching hundreds of megabytes for the first time cost the first large case about
// 0.15 s of a check on an H100's host. Only where the parent writes the inputs (`check`): a sweep draws
// its own.
std::future<HostImages> make_images_ahead(const PuzzleSpec& puzzle, const protocol::Job& job) {
  return std::async(std::launch::async, [&puzzle, &job] {
    HostImages images;
    const auto largest = [&](const std::vector<BufferSpec>& buffers, std::vector<std::vector<float>>& made) {
      made.resize(buffers.size());
      for (size_t k = 0; k < buffers.size(); ++k) {
        int64_t most = 0;
        for (int index : job.cases)
          most = std::max(most, buffers[k].elements(case_list(puzzle, job).at(index).params));
        made[k].resize(static_cast<size_t>(most + 2 * protocol::kGuardElems));
      }
    };
    if (job.inputs_from_parent) {
      largest(puzzle.inputs, images.inputs);
      largest(puzzle.outputs, images.outputs);
    }
    return images;
  });
}

// The case's input images to upload: read from the parent's files, or drawn here.
void read_input_images(const PuzzleSpec& puzzle, const TestCase& test, const protocol::Job& job,
                       const fs::path& dir, int index, std::vector<std::vector<float>>& images) {
  images.resize(puzzle.inputs.size());
  if (!job.inputs_from_parent) {
    Buffers drawn = draw_inputs(puzzle, test, job.seed);
    for (size_t k = 0; k < drawn.size(); ++k) images[k] = GuardedBuffer::input_image(drawn[k]);
    return;
  }
  wait_for_parent_inputs(dir, index);
  for (size_t k = 0; k < puzzle.inputs.size(); ++k) {
    const int64_t elements = puzzle.inputs[k].elements(test.params);
    GuardedBuffer::frame_input(images[k], elements);
    protocol::read_floats_into(protocol::input_path(dir, index, static_cast<int>(k)),
                               images[k].data() + protocol::kGuardElems, elements);
  }
}

// Runs one case and appends its record; returns false when the CUDA context died in it.
bool run_case(const PuzzleSpec& puzzle, const protocol::Job& job, int index, const fs::path& dir,
              protocol::ProgressWriter& progress, HostImages& images) {
  const TestCase& test = case_list(puzzle, job).at(index);
  const bool sweep = job.mode == "sweep";
  // The speed estimate counts what the kernels do, not what they compute: its buffers stay as
  // allocated (zeros), and nothing comes back but the counts.
  const bool estimate = job.estimate;
  progress.append({{"event", "start"}, {"case", index}});
  StepClock clock(test.name);

  if (!estimate) read_input_images(puzzle, test, job, dir, index, images.inputs);
  clock.lap("inputs");
  const std::vector<GuardedBuffer> inputs = allocate(puzzle.inputs, test.params);
  const std::vector<GuardedBuffer> outputs = allocate(puzzle.outputs, test.params);
  LaunchArgs args{.in = {}, .out = {}, .params = test.params};
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!estimate) inputs[k].upload(images.inputs[k]);
    args.in.push_back(inputs[k].data());
  }
  for (const GuardedBuffer& out : outputs) {
    if (!estimate) out.fill(protocol::kPoisonBits);
    args.out.push_back(out.data());
  }
  // What the inputs held before the launcher: it must leave them as they were.
  std::vector<GuardedBuffer> uploaded;
  if (!sweep && !estimate) {
    for (const GuardedBuffer& in : inputs) uploaded.push_back(in.copy());
  }
  clock.lap("upload");

  // The inputs are ready: the parent's case timeout starts again here, so that it measures the learner's
  // code, not our input generation (puzzle 6 runs a float64 forward pass for o and lse).
  progress.append({{"event", "launch"}, {"case", index}});
  protocol::CaseRecord record;
  record.case_index = index;
  begin_launcher(inputs, outputs);
  puzzle_call_launcher(args);
  launcher_returned(record);
  const cudaError_t synced = cudaDeviceSynchronize();
  const cudaError_t last = cudaGetLastError();
  end_launcher(record);
  const cudaError_t error = synced != cudaSuccess ? synced : last;
  if (error != cudaSuccess) record.launch_error = describe(error);
  bool alive = error == cudaSuccess || context_alive();
  clock.lap("launch");

  if (estimate) {
    // The counts are in the record's sim report.
  } else if (alive && sweep) {
    record.outputs_unwritten = count_unwritten(outputs);
  } else if (alive) {
    images.outputs.resize(std::max(images.outputs.size(), outputs.size()));
    for (size_t k = 0; k < outputs.size(); ++k) {
      std::vector<float>& image = images.outputs[k];
      outputs[k].download(image);
      // The file can be rewritten after this; its seal, inside the sealed record, cannot. Sealed (on every
      // core) while the file is written (on one): both only read the image.
      std::future<std::string> seal = std::async(std::launch::async, [&] {
        return protocol::seal(progress.key(),
                              {reinterpret_cast<const char*>(image.data()), image.size() * sizeof(float)});
      });
      protocol::write_floats(protocol::output_path(dir, index, static_cast<int>(k)), image.data(),
                             static_cast<int64_t>(image.size()));
      record.output_seals.push_back(seal.get());
    }
    clock.lap("download+write+seal");
    for (size_t k = 0; k < inputs.size(); ++k)
      record.inputs_modified += inputs[k].count_differences(uploaded[k]);
    uploaded.clear();  // before timing, which makes copies of its own while memory lasts
    clock.lap("inputs_modified");
  }
#ifndef PUZZLE_SIM
  // A refused launcher's speed means nothing (and a stream it leaves running would stretch every rep).
  if (alive && error == cudaSuccess && record.refused.empty() &&
      (sweep || (job.mode == "bench" && test.perf))) {
    alive = time_case(job, args, inputs, outputs, record);
    clock.lap("timing");
  }
#endif
  progress.append(record);
  return alive;
}

// The parent's key for this process, the first line on stdin, read without a stdio buffer (which would
// keep a copy); then stdin is /dev/null, so that nothing loaded later can read the key from the pipe.
protocol::SessionKey take_session_key() {
  char line[64] = {};
  size_t length = 0;
  while (length < sizeof line - 1) {
    const ssize_t n = ::read(STDIN_FILENO, line + length, 1);
    if (n <= 0 || line[length] == '\n') break;
    length += static_cast<size_t>(n);
  }
  const int null = ::open("/dev/null", O_RDONLY);
  if (null < 0 || ::dup2(null, STDIN_FILENO) < 0) throw std::runtime_error("cannot close stdin");
  ::close(null);
  if (length == 0) throw std::runtime_error("no session key on stdin (run me through `puzzle check`)");
  const auto key = protocol::SessionKey::parse(std::string(line, length));
  if (!key) throw std::runtime_error("the session key on stdin is malformed");
  return *key;
}

// The learner's shared object: its static constructors run here, and its glue (launcher_glue.hpp) gives
// the launcher's address.
void load_learner_code(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("cannot load your code: ") + dlerror());
  const auto address = reinterpret_cast<void* (*)()>(dlsym(handle, "puzzle_launcher_address"));
  if (!address) throw std::runtime_error(std::string("your code has no launcher glue: ") + dlerror());
  learner_launcher = address();
  learner_code_loaded(learner_launcher);
}

int run(const fs::path& dir, const char* learner_code) {
  protocol::ProgressWriter progress(protocol::progress_path(dir), take_session_key());
  // stdout unbuffered, before the learner's code runs: what kernels print leaves no copy in a buffer that
  // host code could read back through stdout's FILE (docs/grading.md, "the trust boundary").
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  load_learner_code(learner_code);
  const protocol::Job job = read_job(dir);
  const PuzzleSpec* puzzle = find_puzzle(job.puzzle);
  if (!puzzle) throw std::runtime_error("no puzzle " + std::to_string(job.puzzle));
  for (int index : job.cases) {
    if (index < 0 || index >= static_cast<int>(case_list(*puzzle, job).size())) {
      throw std::runtime_error("no case " + std::to_string(index) + " in puzzle " +
                               std::to_string(job.puzzle));
    }
  }
  if (job.estimate) set_estimating(true);
  HostImages images;
  std::future<HostImages> ahead = make_images_ahead(*puzzle, job);
  for (int index : job.cases) {
    // Taken at the first case with an input of 16 MB or more (the small cases before it gave the thread
    // its time).
    constexpr int64_t kLargeElements = int64_t{4} << 20;
    const Params& params = case_list(*puzzle, job).at(index).params;
    const bool large = std::any_of(puzzle->inputs.begin(), puzzle->inputs.end(), [&](const BufferSpec& in) {
      return in.elements(params) >= kLargeElements;
    });
    if (ahead.valid() && large) images = ahead.get();
    if (!run_case(*puzzle, job, index, dir, progress, images)) return kExitContextDead;
  }
  progress.append({{"event", "end"}});  // the parent accepts no line after this one
  return 0;
}

}  // namespace
}  // namespace puzzle::child

void* puzzle_learner_launcher() {
  return puzzle::child::learner_launcher;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "[child] usage: %s WORKDIR LEARNER.so\n", argv[0]);
    return puzzle::child::kExitHarnessError;
  }
  try {
    return puzzle::child::run(argv[1], argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[child] %s\n", e.what());
    return puzzle::child::kExitHarnessError;
  }
}
