#include "protocol.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "parallel_for.hpp"

namespace puzzle::protocol {
namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& file) {
  throw std::runtime_error(what + " " + file.string() + ": " + std::strerror(errno));
}

// One write() per line: a crash can tear only the line being written, never an earlier one. No fsync: the
// parent reads the file through the same page cache, and a lost machine loses the check anyway.
void append_text(const std::filesystem::path& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot open", file);
  const ssize_t written = ::write(fd, text.data(), text.size());
  const bool ok = written == static_cast<ssize_t>(text.size());
  const int saved_errno = errno;
  ::close(fd);
  errno = saved_errno;
  if (!ok) fail("cannot append to", file);
}

}  // namespace

void read_bytes(const std::filesystem::path& file, char* data, int64_t bytes) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", file);
  constexpr int64_t kPiece = int64_t{16} << 20;
  std::atomic<int> error{0};  // errno is each thread's own
  parallel_ranges(bytes, kPiece, [&](int64_t begin, int64_t end) {
    while (begin < end) {
      const ssize_t got = ::pread(fd, data + begin, static_cast<size_t>(end - begin), begin);
      if (got <= 0) {
        error = got < 0 ? errno : EIO;  // 0: the file ended early
        return;
      }
      begin += got;
    }
  });
  ::close(fd);
  if (error != 0) {
    errno = error;
    fail("cannot read", file);
  }
}

void to_json(nlohmann::json& j, const Job& job) {
  j = {{"puzzle", job.puzzle},
       {"seed", job.seed},
       {"mode", job.mode},
       {"cases", job.cases},
       {"timing", {{"warmup", job.warmup}, {"reps", job.reps}}}};
  if (!job.backend.empty()) j["backend"] = job.backend;
  if (job.inputs_from_parent) j["inputs"] = "parent";
  if (job.estimate) j["estimate"] = true;
}

void from_json(const nlohmann::json& j, Job& job) {
  job = Job{};
  j.at("puzzle").get_to(job.puzzle);
  j.at("seed").get_to(job.seed);
  j.at("cases").get_to(job.cases);
  job.mode = j.value("mode", job.mode);
  if (j.contains("timing")) {
    job.warmup = j["timing"].value("warmup", job.warmup);
    job.reps = j["timing"].value("reps", job.reps);
  }
  job.backend = j.value("backend", job.backend);
  job.inputs_from_parent = j.value("inputs", "") == "parent";
  job.estimate = j.value("estimate", false);
}

std::filesystem::path job_path(const std::filesystem::path& dir) {
  return dir / "job.json";
}

std::filesystem::path progress_path(const std::filesystem::path& dir) {
  return dir / "progress.jsonl";
}

std::filesystem::path output_path(const std::filesystem::path& dir, int case_index, int buffer) {
  return dir / ("case_" + std::to_string(case_index) + "_out_" + std::to_string(buffer) + ".bin");
}

std::filesystem::path input_path(const std::filesystem::path& dir, int case_index, int buffer) {
  return dir / ("case_" + std::to_string(case_index) + "_in_" + std::to_string(buffer) + ".bin");
}

std::filesystem::path inputs_ready_path(const std::filesystem::path& dir, int case_index) {
  return dir / ("case_" + std::to_string(case_index) + "_in.ready");
}

std::filesystem::path inputs_failed_path(const std::filesystem::path& dir) {
  return dir / "inputs.failed";
}

void to_json(nlohmann::json& j, const CaseRecord& r) {
  j = {{"event", "done"}, {"case", r.case_index}, {"inputs_modified", r.inputs_modified}};
  if (!r.launch_error.empty()) j["launch_error"] = r.launch_error;
  if (r.time_ms >= 0) j["time_ms"] = r.time_ms;
  if (!r.times_ms.empty()) j["times_ms"] = r.times_ms;
  if (r.scratch_bytes != kUnknownBytes) j["scratch_bytes"] = r.scratch_bytes;
  if (r.scratch_allocated_bytes != kUnknownBytes) j["scratch_allocated_bytes"] = r.scratch_allocated_bytes;
  if (r.outputs_unwritten >= 0) j["outputs_unwritten"] = r.outputs_unwritten;
  if (!r.sim.is_null()) j["sim"] = r.sim;
  if (r.kernel_launches >= 0) j["kernel_launches"] = r.kernel_launches;
  if (!r.refused.empty()) j["refused"] = r.refused;
  if (!r.output_seals.empty()) j["output_seals"] = r.output_seals;
}

void from_json(const nlohmann::json& j, CaseRecord& r) {
  r = CaseRecord{};
  j.at("case").get_to(r.case_index);
  r.launch_error = j.value("launch_error", r.launch_error);
  r.inputs_modified = j.value("inputs_modified", r.inputs_modified);
  r.time_ms = j.value("time_ms", r.time_ms);
  r.times_ms = j.value("times_ms", r.times_ms);
  r.scratch_bytes = j.value("scratch_bytes", r.scratch_bytes);
  r.scratch_allocated_bytes = j.value("scratch_allocated_bytes", r.scratch_allocated_bytes);
  r.outputs_unwritten = j.value("outputs_unwritten", r.outputs_unwritten);
  if (j.contains("sim")) r.sim = j["sim"];
  r.kernel_launches = j.value("kernel_launches", r.kernel_launches);
  r.refused = j.value("refused", r.refused);
  r.output_seals = j.value("output_seals", r.output_seals);
}

void append_line(const std::filesystem::path& file, const nlohmann::json& line) {
  append_text(file, line.dump() + "\n");
}

std::vector<std::string> read_raw_lines(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file, std::ios::binary);
  if (!in) return lines;  // the child died before its first line
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  size_t begin = 0;
  for (size_t end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1) {
    lines.push_back(text.substr(begin, end - begin));
  }
  // Whatever follows the last newline is a line torn by a crash: ignored.
  return lines;
}

std::vector<nlohmann::json> read_lines(const std::filesystem::path& file) {
  std::vector<nlohmann::json> lines;
  for (const std::string& raw : read_raw_lines(file))
    lines.push_back(nlohmann::json::parse(raw.substr(0, raw.find('\t'))));
  return lines;
}

void ProgressWriter::append(nlohmann::json line) {
  line["seq"] = next_seq_++;
  const std::string text = line.dump();
  append_text(file_, text + "\t" + seal(key_, text) + "\n");
}

CheckedLine check_line(const std::string& raw, const SessionKey& key, int64_t seq) {
  const size_t tab = raw.rfind('\t');
  if (tab == std::string::npos) return {.problem = "a line without the harness's seal"};
  const std::string text = raw.substr(0, tab);
  if (seal(key, text) != raw.substr(tab + 1))
    return {.problem = "a line the harness did not write (wrong seal)"};
  CheckedLine checked{.line = nlohmann::json::parse(text, nullptr, false)};
  if (!checked.line.is_object()) return {.problem = "a sealed line that is not a JSON object"};
  if (checked.line.value("seq", int64_t{-1}) != seq)
    return {.problem = "line " + std::to_string(seq) + " out of order (a replayed or dropped line)"};
  return checked;
}

void write_floats(const std::filesystem::path& file, const float* data, int64_t count) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), count * static_cast<std::streamsize>(sizeof(float)));
  out.close();
  if (!out) fail("cannot write", file);
}

std::vector<float> read_floats(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) return {};
  const auto bytes = std::filesystem::file_size(file);
  if (bytes % sizeof(float) != 0) {
    throw std::runtime_error(file.string() + ": size " + std::to_string(bytes) + " is not whole floats");
  }
  std::vector<float> data(bytes / sizeof(float));
  read_bytes(file, reinterpret_cast<char*>(data.data()), static_cast<int64_t>(bytes));
  return data;
}

void read_floats_into(const std::filesystem::path& file, float* data, int64_t count) {
  const int64_t bytes = count * static_cast<int64_t>(sizeof(float));
  std::error_code error;
  if (static_cast<int64_t>(std::filesystem::file_size(file, error)) != bytes || error) {
    throw std::runtime_error(file.string() + ": not " + std::to_string(count) + " floats");
  }
  read_bytes(file, reinterpret_cast<char*>(data), bytes);
}

}  // namespace puzzle::protocol
