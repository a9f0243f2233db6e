#include "sim_report_json.hpp"

namespace puzzle::child {
namespace {

template <class T>
nlohmann::json triple(const T (&v)[3]) {
  return {v[0], v[1], v[2]};
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
          {"context_switches", report.context_switches},
          {"simulated_threads", report.simulated_threads}};
}

}  // namespace puzzle::child
