#include "launch_work.hpp"

namespace puzzle::perf {
namespace {

template <size_t N>
std::array<double, N> doubles(const nlohmann::json& j) {
  std::array<double, N> out{};
  for (size_t i = 0; i < N && i < j.size(); ++i) out[i] = j[i].get<double>();
  return out;
}

LaunchWork from_json(const nlohmann::json& j) {
  LaunchWork w;
  w.kernel = j.value("kernel", "");
  w.function = j.value("function", "");
  for (size_t i = 0; i < 3; ++i) {
    w.grid[i] = j.at("grid").at(i).get<uint64_t>();
    w.block[i] = j.at("block").at(i).get<uint64_t>();
  }
  w.shared_bytes = j.value("static_shared", uint64_t{0}) + j.value("dynamic_shared", uint64_t{0});
  w.blocks_simulated = j.value("blocks_simulated", uint64_t{0});
  w.cut_short = j.value("cut_short", false);
  w.per_warp = doubles<kWorkKinds>(j.at("per_warp"));
  w.longest_thread = doubles<kWorkKinds>(j.at("longest_thread"));
  w.block_longest = doubles<kWorkKinds>(j.value("block_longest", nlohmann::json::array()));
  w.load_requests = j.value("load_requests", 0.0);
  w.store_requests = j.value("store_requests", 0.0);
  w.load_sectors = j.value("load_sectors", 0.0);
  w.store_sectors = j.value("store_sectors", 0.0);
  w.lines = j.value("lines", 0.0);
  w.load_bytes = j.value("load_bytes", 0.0);
  w.store_bytes = j.value("store_bytes", 0.0);
  w.waits_for_blocks = j.value("waits_for_blocks", false);
  for (const auto& n : j.value("load_reuse", nlohmann::json::array()))
    w.load_reuse.push_back(n.get<double>());
  w.first_load_sectors = j.value("first_load_sectors", 0.0);
  w.first_store_sectors = j.value("first_store_sectors", 0.0);
  w.footprint_load_bytes = j.value("footprint_load_bytes", 0.0);
  w.footprint_store_bytes = j.value("footprint_store_bytes", 0.0);
  w.shared_requests = j.value("shared_requests", 0.0);
  w.shared_wavefronts = j.value("shared_wavefronts", 0.0);
  w.shared_ideal_wavefronts = j.value("shared_ideal_wavefronts", 0.0);
  return w;
}

}  // namespace

std::vector<LaunchWork> launch_work(const nlohmann::json& sim_report) {
  std::vector<LaunchWork> launches;
  if (!sim_report.is_object() || !sim_report.contains("work")) return launches;
  for (const auto& j : sim_report["work"]) launches.push_back(from_json(j));
  return launches;
}

}  // namespace puzzle::perf
