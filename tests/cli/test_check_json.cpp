#include <doctest/doctest.h>

#include <filesystem>

#include "report/check_json.hpp"
#include "report_fixture.hpp"
#include "support/file_io.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;
using nlohmann::json;

namespace {

void require_fields(const json& object, std::initializer_list<const char*> fields) {
  for (const char* field : fields) {
    CAPTURE(field);
    CHECK(object.contains(field));
  }
}

}  // namespace

TEST_CASE("the JSON report has every field the format promises") {
  const json j = report_to_json(testing::fixture_report(), "0.1.0");
  require_fields(j, {"tool", "version", "schema_version", "created", "command", "exit_code", "error",
                     "backend", "backend_reason", "device", "seed", "puzzles"});
  CHECK(j["tool"] == "puzzle");
  CHECK(j["version"] == "0.1.0");
  CHECK(j["schema_version"] == 1);
  CHECK(j["backend"] == "sim");
  CHECK(j["seed"] == 42);
  CHECK(j["error"].is_null());
  require_fields(j["device"], {"name", "compute_capability", "copy_gbps"});
  CHECK(j["device"]["name"] == "CPU simulator");
  CHECK(j["device"]["copy_gbps"].is_null());

  REQUIRE(j["puzzles"].size() == 1);
  const json& p = j["puzzles"][0];
  require_fields(p, {"id", "slug", "name", "file", "source", "status", "score", "max_score", "build", "cases",
                     "output"});
  CHECK(p["status"] == "failed");
  CHECK(p["source"] == "learner");
  CHECK(p["score"] == 1);
  CHECK(p["max_score"] == 2);
  require_fields(p["build"], {"ok", "seconds", "log"});
  CHECK(p["output"]["stdout"] == "hello from the kernel\n");

  REQUIRE(p["cases"].size() == 3);
  for (const json& c : p["cases"]) {
    require_fields(
        c, {"name",       "params",    "shape",     "status",    "passed",      "max_abs_err",  "max_rel_err",
            "mismatches", "nan_count", "inf_count", "unwritten", "oob_writes",  "message",      "diagnoses",
            "notes",      "sim",       "time_ms",   "gbps",      "pct_of_copy", "solution_gbps"});
    require_fields(c, {"scratch_bytes", "scratch_allocated_bytes"});
  }
  const json& failed = p["cases"][1];
  CHECK(failed["status"] == "failed");
  CHECK(failed["passed"] == false);
  CHECK(failed["params"]["rows"] == 127);
  CHECK(failed["shape"] == "cols=129 rows=127");
  CHECK(failed["mismatches"] == 3);
  CHECK(failed["nan_count"] == 1);
  CHECK(failed["oob_writes"] == 2);
  CHECK(failed["diagnoses"][0]["id"] == "missing_max_subtraction");
  CHECK(failed["buffers"][0]["first_mismatches"][1]["got"] == "nan");  // JSON has no NaN
  require_fields(failed["sim"], {"findings", "traffic", "scratch"});
  require_fields(failed["sim"]["scratch"], {"peak_bytes", "live_bytes", "allocated_bytes"});
  CHECK(failed["scratch_allocated_bytes"].is_null());  // unknown: the record has no figure
  CHECK(p["cases"][2]["status"] == "skipped");
  CHECK(p["cases"][2]["mismatches"].is_null());
}

TEST_CASE("a check stopped by an error still gives a report that says why") {
  CheckReport report{.command = "puzzle check 99", .created = "2025-01-02T03:04:05Z", .seed = 1};
  report.error = "no puzzle \"99\"";
  report.exit_code = 2;
  const json j = report_to_json(report, "0.1.0");
  CHECK(j["error"] == "no puzzle \"99\"");
  CHECK(j["exit_code"] == 2);
  CHECK(j["backend"].is_null());
  CHECK(j["puzzles"].empty());
}

TEST_CASE("the JSON report is written atomically, replacing an older one") {
  TempDir dir("cli-test-");
  const auto file = dir.path() / "sub" / "report.json";
  write_atomically(file, "old");
  write_json_report(file, testing::fixture_report(), "0.1.0");
  const auto text = read_text(file);
  REQUIRE(text);
  CHECK(json::parse(*text)["seed"] == 42);
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(file.parent_path())) ++entries;
  CHECK(entries == 1);  // no temporary file left behind
}

TEST_CASE("writing a report where no file can be created fails loudly") {
  CHECK_THROWS(write_json_report("/proc/no/such/dir/report.json", testing::fixture_report(), "0.1.0"));
}
