#include "report/check_json.hpp"

#include <algorithm>
#include <cmath>

#include "report/json_values.hpp"
#include "support/file_io.hpp"

namespace puzzle::cli {
namespace {

using nlohmann::json;

constexpr size_t kMaxOutputBytes = 64 * 1024;  // of the program's stdout / stderr kept in the report

json text_or_null(const std::string& text) {
  return text.empty() ? json(nullptr) : json(text);
}

std::string clipped(const std::string& text) {
  if (text.size() <= kMaxOutputBytes) return text;
  return text.substr(0, kMaxOutputBytes) + "\n[... " + std::to_string(text.size() - kMaxOutputBytes) +
         " more bytes not kept]\n";
}

json buffer_json(const BufferCheck& b) {
  json first = json::array();
  for (const auto& m : b.first) {
    first.push_back({{"index", m.index},
                     {"location", m.location},
                     {"expected", json_number(m.expected)},
                     {"got", json_number(m.got)}});
  }
  return {{"name", b.name},
          {"dtype", dtype_name(b.dtype)},
          {"elements", b.elements},
          {"mismatches", b.mismatches},
          {"nan_count", b.nan_count},
          {"inf_count", b.inf_count},
          {"unwritten", b.unwritten},
          {"guard_before", b.guard_before},
          {"guard_after", b.guard_after},
          {"farthest_after", b.farthest_after},
          {"max_abs_err", json_number(b.max_abs_err)},
          {"max_rel_err", json_number(b.max_rel_err)},
          {"first_mismatches", first}};
}

json sim_json(const json& sim) {
  if (!sim.is_object()) return nullptr;
  const auto part = [&](const char* key) { return sim.contains(key) ? sim[key] : json::array(); };
  return {{"findings", part("findings")},
          {"traffic", part("traffic")},
          {"launches", part("launches")},
          {"scratch",
           {{"peak_bytes", sim.value("scratch_peak_bytes", json(nullptr))},
            {"live_bytes", sim.value("scratch_live_bytes", json(nullptr))},
            {"allocated_bytes", sim.value("scratch_allocated_bytes", json(nullptr))}}}};
}

json estimate_json(const std::optional<SpeedEstimate>& estimate) {
  if (!estimate) return nullptr;
  const SpeedEstimate& e = *estimate;
  return {{"gpu", e.gpu},
          {"ms", json_number(e.ms)},
          {"at_least", e.at_least},
          {"at_most", e.at_most},
          {"binding", e.binding},
          {"bound", e.bound},
          {"pct_of_copy", json_number(e.pct_of_copy)},
          {"tflops", json_number(e.tflops)},
          {"solution_ms", json_number(e.solution_ms)},
          {"slow_reason", e.slow_reason.empty() ? json(nullptr) : json(e.slow_reason)},
          {"counters",
           {{"kernel", e.kernel},
            {"blocks", e.blocks},
            {"threads_per_block", e.threads_per_block},
            {"busy_sms", e.busy_sms},
            {"sms", e.sms},
            {"sectors_per_request", json_number(e.sectors_per_request)},
            {"sector_use", json_number(e.sector_use)},
            {"bank_conflict_ways", json_number(e.bank_ways)},
            {"warps_per_sm", e.warps_per_sm},
            {"max_warps_per_sm", e.max_warps_per_sm},
            {"occupancy_limit", e.occupancy_limit},
            {"registers", e.registers},
            {"registers_measured", e.registers_measured},
            {"dram_bytes", json_number(e.dram_bytes)}}}};
}

json case_json(const CaseReport& c) {
  const CaseResult& r = c.result;
  json buffers = json::array(), diagnoses = json::array();
  int64_t mismatches = 0, nans = 0, infs = 0, unwritten = 0, oob = 0;
  double max_abs = 0, max_rel = 0;
  for (const auto& b : r.checks) {
    buffers.push_back(buffer_json(b));
    mismatches += b.mismatches;
    nans += b.nan_count;
    infs += b.inf_count;
    unwritten += b.unwritten;
    oob += b.guard_before + b.guard_after;
    max_abs = std::max(max_abs, b.max_abs_err);
    max_rel = std::max(max_rel, b.max_rel_err);
  }
  for (const auto& d : r.diagnoses) diagnoses.push_back({{"id", d.id}, {"message", d.message}});
  const bool judged = !r.checks.empty();
  const auto& record = r.record;
  return {{"name", r.name},
          {"params", r.params},
          {"shape", shape_of(r.params)},
          {"status", to_string(r.status)},
          {"passed", r.status == CaseStatus::passed},
          {"points", r.points},
          {"max_points", r.max_points},
          {"max_abs_err", judged ? json_number(max_abs) : json(nullptr)},
          {"max_rel_err", judged ? json_number(max_rel) : json(nullptr)},
          {"mismatches", judged ? json(mismatches) : json(nullptr)},
          {"nan_count", judged ? json(nans) : json(nullptr)},
          {"inf_count", judged ? json(infs) : json(nullptr)},
          {"unwritten", judged ? json(unwritten) : json(nullptr)},
          {"oob_writes", judged ? json(oob) : json(nullptr)},
          {"buffers", buffers},
          {"message", r.message},
          {"diagnoses", diagnoses},
          {"notes", r.notes},
          {"launch_error", text_or_null(record.launch_error)},
          {"scratch_bytes",
           record.scratch_bytes != protocol::kUnknownBytes ? json(record.scratch_bytes) : json(nullptr)},
          {"scratch_allocated_bytes", record.scratch_allocated_bytes != protocol::kUnknownBytes
                                          ? json(record.scratch_allocated_bytes)
                                          : json(nullptr)},
          {"sim", sim_json(record.sim)},
          {"time_ms", record.time_ms > 0 ? json(record.time_ms) : json(nullptr)},
          {"gbps", json_number(r.gbps)},
          {"pct_of_copy", json_number(r.pct_of_copy)},
          {"tflops", json_number(r.tflops)},
          {"solution_gbps", json_number(r.solution_gbps)},
          {"solution_tflops", json_number(c.solution_tflops)},
          {"estimate", estimate_json(c.estimate)}};
}

json puzzle_json(const PuzzleReport& p) {
  json cases = json::array();
  for (const auto& c : p.cases) cases.push_back(case_json(c));
  return {{"id", p.spec->id},
          {"slug", p.spec->slug},
          {"name", p.spec->title},
          {"file", p.file.string()},
          {"source", to_string(p.source)},
          {"status", to_string(p.status)},
          {"score", p.score},
          {"max_score", p.max_score},
          {"cases_passed", passed_cases(p)},
          {"cases_counted", counted_cases(p)},
          {"build",
           {{"ok", p.build.ok},
            {"cached", p.build.cached},
            {"seconds", p.build.seconds},
            {"message", text_or_null(p.build.message)},
            {"log", p.build.log},
            {"cuda_rules", text_or_null(p.build.cuda_rules)}}},
          {"output", {{"stdout", clipped(p.program_stdout)}, {"stderr", clipped(p.program_stderr)}}},
          {"cases", cases}};
}

}  // namespace

json report_to_json(const CheckReport& report, const std::string& tool_version) {
  json puzzles = json::array();
  for (const auto& p : report.puzzles) puzzles.push_back(puzzle_json(p));
  return {{"tool", "puzzle"},
          {"version", tool_version},
          {"schema_version", kReportSchemaVersion},
          {"created", report.created},
          {"command", report.command},
          {"exit_code", report.exit_code},
          {"error", text_or_null(report.error)},
          {"backend", report.backend ? json(to_string(*report.backend)) : json(nullptr)},
          {"backend_reason", text_or_null(report.backend_reason)},
          {"device",
           {{"name", report.backend ? json(report.device.name) : json(nullptr)},
            {"compute_capability",
             report.device.compute_capability ? json(*report.device.compute_capability) : json(nullptr)},
            {"copy_gbps", json_number(report.device.copy_gbps)}}},
          {"seed", report.seed},
          {"puzzles", puzzles}};
}

void write_json_report(const std::filesystem::path& file, const CheckReport& report,
                       const std::string& tool_version) {
  write_json_file(file, report_to_json(report, tool_version));
}

void write_json_file(const std::filesystem::path& file, const nlohmann::json& json) {
  write_atomically(file, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace puzzle::cli
