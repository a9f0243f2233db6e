#include <doctest/doctest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "protocol.hpp"

namespace fs = std::filesystem;
using namespace puzzle::protocol;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("harness_tests_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("Job round-trips through the job.json layout") {
  Job job{.puzzle = 1,
          .seed = 0xFFFFFFFFFFFFFFFFull,
          .mode = "bench",
          .cases = {0, 3, 16},
          .warmup = 2,
          .reps = 7,
          .backend = "gpu"};
  const nlohmann::json j = job;
  CHECK(j["timing"]["reps"] == 7);
  CHECK(j["backend"] == "gpu");
  const Job back = j.get<Job>();
  CHECK(back.puzzle == 1);
  CHECK(back.seed == job.seed);
  CHECK(back.mode == "bench");
  CHECK(back.cases == job.cases);
  CHECK(back.warmup == 2);
  CHECK(back.reps == 7);
  CHECK(back.backend == "gpu");

  CHECK_FALSE(j.contains("inputs"));
  CHECK_FALSE(back.inputs_from_parent);

  const Job minimal = nlohmann::json::parse(R"({"puzzle": 1, "seed": 42, "cases": [1]})").get<Job>();
  CHECK(minimal.mode == "check");
  CHECK(minimal.warmup == 3);
  CHECK(minimal.backend.empty());
  CHECK_FALSE(minimal.inputs_from_parent);

  const nlohmann::json from_parent = Job{.puzzle = 2, .seed = 1, .cases = {0}, .inputs_from_parent = true};
  CHECK(from_parent["inputs"] == "parent");
  CHECK(from_parent.get<Job>().inputs_from_parent);
}

TEST_CASE("the parent's input files are read whole, or not at all") {
  TempDir dir;
  const fs::path file = input_path(dir.path, 4, 2);
  CHECK(file.filename() == "case_4_in_2.bin");
  CHECK(inputs_ready_path(dir.path, 4).filename() == "case_4_in.ready");
  const float values[] = {std::bit_cast<float>(kGuardBits), -2.5f, 7.0f};
  write_floats(file, values, 3);
  float back[3] = {};
  read_floats_into(file, back, 3);
  for (int i = 0; i < 3; ++i) CHECK(std::bit_cast<uint32_t>(back[i]) == std::bit_cast<uint32_t>(values[i]));
  float more[4] = {};
  CHECK_THROWS_WITH(read_floats_into(file, more, 4), doctest::Contains("not 4 floats"));
  CHECK_THROWS(read_floats_into(dir.path / "missing.bin", back, 3));
}

TEST_CASE("CaseRecord round-trips and leaves out what does not apply") {
  CaseRecord empty;
  empty.case_index = 4;
  const nlohmann::json j = empty;
  CHECK(j["event"] == "done");
  CHECK(j["case"] == 4);
  CHECK(!j.contains("launch_error"));
  CHECK(!j.contains("time_ms"));
  CHECK(!j.contains("scratch_bytes"));
  CHECK(!j.contains("scratch_allocated_bytes"));
  CHECK(!j.contains("sim"));
  const CaseRecord back = j.get<CaseRecord>();
  CHECK(back.scratch_bytes == kUnknownBytes);
  CHECK(back.scratch_allocated_bytes == kUnknownBytes);
  CHECK(back.time_ms < 0);
  CHECK(back.sim.is_null());

  CaseRecord full{.case_index = 2,
                  .launch_error = "cudaErrorIllegalAddress: an illegal memory access",
                  .inputs_modified = 5,
                  .time_ms = 0.25,
                  .times_ms = {0.25, 0.5},
                  .scratch_bytes = 4096,
                  .scratch_allocated_bytes = 1024,
                  .sim = {{"findings", nlohmann::json::array()}}};
  const CaseRecord again = nlohmann::json(full).get<CaseRecord>();
  CHECK(again.case_index == 2);
  CHECK(again.launch_error == full.launch_error);
  CHECK(again.inputs_modified == 5);
  CHECK(again.time_ms == 0.25);
  CHECK(again.times_ms == full.times_ms);
  CHECK(again.scratch_bytes == 4096);
  CHECK(again.scratch_allocated_bytes == 1024);
  CHECK(again.sim == full.sim);
}

TEST_CASE("progress lines survive a torn last line") {
  TempDir dir;
  const fs::path file = progress_path(dir.path);
  CHECK(read_lines(file).empty());  // no file yet
  append_line(file, {{"event", "start"}, {"case", 0}});
  append_line(file, {{"event", "done"}, {"case", 0}});
  append_line(file, {{"event", "start"}, {"case", 1}});
  {
    std::ofstream torn(file, std::ios::app);
    torn << R"({"event":"done","ca)";
  }
  const auto lines = read_lines(file);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1]["event"] == "done");
  CHECK(lines[2]["case"] == 1);
}

TEST_CASE("float files keep every bit, NaN payloads included") {
  TempDir dir;
  const fs::path file = output_path(dir.path, 3, 1);
  CHECK(file.filename() == "case_3_out_1.bin");
  const float values[] = {std::bit_cast<float>(kPoisonBits),
                          std::bit_cast<float>(kGuardBits),
                          -0.0f,
                          std::numeric_limits<float>::infinity(),
                          1e-45f,
                          3.25f};
  write_floats(file, values, 6);
  const std::vector<float> back = read_floats(file);
  REQUIRE(back.size() == 6);
  for (int i = 0; i < 6; ++i) CHECK(std::bit_cast<uint32_t>(back[i]) == std::bit_cast<uint32_t>(values[i]));

  CHECK(read_floats(dir.path / "missing.bin").empty());
  {
    std::ofstream odd(dir.path / "odd.bin", std::ios::binary);
    odd << "abcde";
  }
  CHECK_THROWS(read_floats(dir.path / "odd.bin"));
}
