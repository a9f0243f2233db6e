#include "report/bench_files.hpp"
#include "report/json_values.hpp"

namespace puzzle::cli {
namespace {

using nlohmann::json;

json timing_json(const BenchTiming& t) {
  return {{"time_ms", json_number(t.time_ms)},
          {"rate", json_number(t.rate)},
          {"memory_bytes", t.memory_bytes ? json(*t.memory_bytes) : json(nullptr)},
          {"problem", t.problem.empty() ? json(nullptr) : json(t.problem)},
          {"at_least", t.at_least}};
}

json shapes_json(const BenchReport& report) {
  json shapes = json::array();
  for (size_t s = 0; s < report.shapes.size(); ++s) {
    const TestCase& shape = *report.shapes[s];
    json results = json::object();
    for (const BenchSeries& series : bench_series(report))
      results[series.label] = timing_json(series.timings[s]);
    shapes.push_back({{"name", shape.name},
                      {"params", shape.params},
                      {"about", shape.about},
                      {"min_bytes", report.spec->min_bytes(shape.params)},
                      {"flops", report.spec->flops ? json(report.spec->flops(shape.params)) : json(nullptr)},
                      {"results", results}});
  }
  return shapes;
}

json torch_json(const TorchColumns& torch) {
  json labels = json::array();
  for (const TorchColumn& c : torch.columns) labels.push_back(c.label);
  return {{"absent", torch.absent.empty() ? json(nullptr) : json(torch.absent)},
          {"version", torch.absent.empty() ? json(torch.version) : json(nullptr)},
          {"device", torch.absent.empty() ? json(torch.device) : json(nullptr)},
          {"columns", labels}};
}

json traffic_json(const BenchReport& report) {
  json cases = json::array();
  for (const TrafficCase& t : report.traffic) {
    json buffers = json::array();
    for (const TrafficBuffer& b : t.buffers) {
      buffers.push_back({{"label", b.label},
                         {"size", b.size},
                         {"bytes_read", b.bytes_read},
                         {"bytes_written", b.bytes_written}});
    }
    cases.push_back(
        {{"case", t.name}, {"status", t.status}, {"minimum_bytes", t.minimum_bytes}, {"buffers", buffers}});
  }
  return cases;
}

}  // namespace

json bench_to_json(const BenchReport& report, const std::string& tool_version) {
  json kernels = json::array();
  for (const BenchKernel& k : report.kernels) {
    kernels.push_back({{"label", k.label},
                       {"source", to_string(k.source)},
                       {"file", k.file.string()},
                       {"built", k.build.ok},
                       {"build_message", k.build.message}});
  }
  json j = {{"tool", {{"name", "puzzle"}, {"version", tool_version}}},
            {"kind", "bench"},
            {"command", report.command},
            {"created", report.created},
            {"puzzle", report.spec ? json(report.spec->id) : json(nullptr)},
            {"backend", report.backend ? json(to_string(*report.backend)) : json(nullptr)},
            {"device", {{"name", report.device.name}, {"copy_gbps", json_number(report.device.copy_gbps)}}},
            {"metric", report.metric},
            {"exit_code", report.exit_code},
            {"error", report.error.empty() ? json(nullptr) : json(report.error)}};
  j["kernels"] = kernels;
  j["shapes"] = shapes_json(report);
  if (report.backend == Backend::gpu) {
    j["torch"] = torch_json(report.torch);
  } else if (report.backend == Backend::sim) {
    j["estimated_on"] = report.estimated_on;
    j["traffic_kernel"] = report.traffic_kernel;
    j["traffic"] = traffic_json(report);
  }
  return j;
}

}  // namespace puzzle::cli
