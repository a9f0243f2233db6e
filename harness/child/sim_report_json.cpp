#include "sim_report_json.hpp"

namespace puzzle::child {
namespace {

template <class T>
nlohmann::json triple(const T (&v)[3]) {
  return {v[0], v[1], v[2]};
}

nlohmann::json work_json(const sim::harness::LaunchWork& w) {
  return {{"kernel", w.kernel},
          {"grid", triple(w.grid)},
          {"block", triple(w.block)},
          {"dynamic_shared", w.dynamic_shared},
          {"static_shared", w.static_shared},
          {"blocks_simulated", w.blocks_simulated},
          {"kernel_offset", w.kernel_offset},
          {"cut_short", w.cut_short},
          {"per_warp", w.per_warp},
          {"longest_thread", w.longest_thread},
          {"block_longest", w.block_longest},
          {"load_requests", w.load_requests},
          {"store_requests", w.store_requests},
          {"load_sectors", w.load_sectors},
          {"store_sectors", w.store_sectors},
          {"lines", w.lines},
          {"load_bytes", w.load_bytes},
          {"store_bytes", w.store_bytes},
          {"waits_for_blocks", w.waits_for_blocks},
          {"load_reuse", w.load_reuse},
          {"first_load_sectors", w.first_load_sectors},
          {"first_store_sectors", w.first_store_sectors},
          {"footprint_load_bytes", w.footprint_load_bytes},
          {"footprint_store_bytes", w.footprint_store_bytes},
          {"shared_requests", w.shared_requests},
          {"shared_wavefronts", w.shared_wavefronts},
          {"shared_ideal_wavefronts", w.shared_ideal_wavefronts}};
}

}  // namespace

nlohmann::json to_json(const sim::harness::Report& report) {
  nlohmann::json findings = nlohmann::json::array(), traffic = nlohmann::json::array(),
                 launches = nlohmann::json::array(), wavefronts = nlohmann::json::array();
  for (const auto& f : report.findings) {
    findings.push_back({{"severity", f.severity},
                        {"kind", f.kind},
                        {"message", f.message},
                        {"file", f.file},
                        {"line", f.line},
                        {"block", triple(f.block)},
                        {"thread", triple(f.thread)},
                        {"count", f.count}});
  }
  for (const auto& t : report.traffic) {
    traffic.push_back({{"label", t.label},
                       {"size", t.size},
                       {"bytes_read", t.bytes_read},
                       {"bytes_written", t.bytes_written}});
  }
  for (const auto& l : report.launches) {
    launches.push_back({{"kernel", l.kernel},
                        {"grid", triple(l.grid)},
                        {"block", triple(l.block)},
                        {"dynamic_shared", l.dynamic_shared},
                        {"static_shared", l.static_shared},
                        {"file", l.file},
                        {"line", l.line},
                        {"error", l.error}});
  }
  nlohmann::json work = nlohmann::json::array();
  for (const auto& w : report.work) work.push_back(work_json(w));
  for (const auto& w : report.shared_wavefronts) {
    wavefronts.push_back({{"file", w.file},
                          {"line", w.line},
                          {"instructions", w.instructions},
                          {"wavefronts", w.wavefronts},
                          {"ideal_wavefronts", w.ideal_wavefronts},
                          {"uneven", w.uneven}});
  }
  return {{"findings", findings},
          {"traffic", traffic},
          {"launches", launches},
          {"shared_wavefronts", wavefronts},
          {"scratch_peak_bytes", report.scratch_peak_bytes},
          {"scratch_live_bytes", report.scratch_live_bytes},
          {"scratch_allocated_bytes", report.scratch_allocated_bytes},
          {"context_switches", report.context_switches},
          {"simulated_threads", report.simulated_threads},
          {"work", work}};
}

}  // namespace puzzle::child
