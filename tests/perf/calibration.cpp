// Holds the simulator's speed estimate to the measured tables, docs/measurements/calibration_<gpu>_*.json
// (tools/calibrate.sh writes them on a GPU; calibration_<gpu>_seed.json copies the pages' figures until
// one is measured). Per GPU the newest measured table is used, the seed table only where none is:
//   - at least 90% of the estimates are within 2x of the measured time (the goal, which the model reached
//     against the first measured table; the test keeps it from getting worse),
//   - every ladder's versions come in the measured order (two versions measured within 10% of each other
//     may come either way; an estimate that is an upper bound, of blocks that wait for one another, is
//     not compared), but for the three pairs listed in kKnownOutOfOrder.
// The simulator's counts behind the estimates are stored beside the tables (calibration_counts.json):
// counting every kernel takes minutes, the model takes milliseconds. `--check` counts live only what is
// not stored, and recounts puzzle 1's ladder to see that the stored counts are still the simulator's.
// `--count` recounts every entry of the tables used and stores the counts (after a new table, or a change
// to the simulator's counting; `--count docs/measurements N`: puzzle N's entries only); `--fit` searches the
// model's constants (harness/perf/model_constants.hpp) that fit the tables best. Each prints every estimate
// beside its measured time and the error per puzzle.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "model/build_config.hpp"
#include "pipelines/puzzle_lookup.hpp"
#include "pipelines/speed_counts.hpp"
#include "time_model.hpp"

namespace {

namespace fs = std::filesystem;
using namespace puzzle;
using namespace puzzle::cli;

constexpr double kWithin = 2, kTarget = 0.9;  // the goal: 90% of the estimates within 2x
// What the model reached against the first measured table (H200, 2026-11-28) and the H100's seed table:
// 165 of 183 within 2x, 90%, the goal. The test holds the model to it, and fails if it gets worse.
constexpr double kReached = 0.90;
// The ladders the model puts out of order against that table (docs/simulator.md says why): faster
// version, slower version, shape. Any other pair out of order fails the test.
constexpr std::tuple<const char*, const char*, const char*> kKnownOutOfOrder[] = {
    {"solutions/04_blocked_softmax/2_row_groups.cu", "solutions/04_blocked_softmax/1_clear.cu", "8192x4096"},
    {"solutions/09_flash_forward_bf16/2_fa2_tiles.cu", "solutions/09_flash_forward_bf16/1_clear.cu",
     "8x2048x2048x64"},
    {"solutions/10_flash_backward_bf16/1_clear.cu", "solutions/10_flash_backward_bf16/2_fa2_tiles.cu",
     "4x2048x2048x128_causal"},
};

bool known_out_of_order(const std::string& faster, const std::string& slower, const std::string& shape) {
  for (const auto& [known_faster, known_slower, known_shape] : kKnownOutOfOrder) {
    if (faster == known_faster && slower == known_slower && shape == known_shape) return true;
  }
  return false;
}
constexpr double kSameSpeed = 1.1;  // versions measured this close may come in either order

struct Entry {
  std::string table, device, file, shape;  // shape: a bench shape or a timed case, by name
  int puzzle = 0;
  bool sweep = false;
  double measured_ms = 0;
  const perf::GpuSpec* gpu = nullptr;
  std::optional<CaseCounts> counts;
  std::string problem;  // why there is no estimate
};

fs::path counts_file(const fs::path& folder) {
  return folder / "calibration_counts.json";
}

// The measured time of an entry: its milliseconds, or the least bytes or the FLOPs over its rate.
double measured_ms(const nlohmann::json& e, const PuzzleSpec& spec, const Params& params) {
  if (e.contains("ms")) return e["ms"].get<double>();
  if (e.contains("gbps")) return spec.min_bytes(params) / (e["gbps"].get<double>() * 1e9) * 1e3;
  return spec.flops(params) / (e["tflops"].get<double>() * 1e12) * 1e3;
}

// The tables used: per GPU the newest measured one ("kind": "measured", by its "date"), else its seed.
std::vector<fs::path> chosen_tables(const fs::path& folder) {
  struct Table {
    fs::path path;
    bool measured = false;
    std::string date;
  };
  std::map<std::string, Table> by_gpu;
  for (const auto& f : fs::directory_iterator(folder)) {
    const std::string name = f.path().filename().string();
    if (!name.starts_with("calibration_") || !name.ends_with(".json") || f.path() == counts_file(folder))
      continue;
    std::ifstream in(f.path());
    const nlohmann::json j = nlohmann::json::parse(in);
    const Table table{f.path(), j.value("kind", "") == "measured", j.value("date", "")};
    Table& chosen = by_gpu[j.at("device").get<std::string>()];
    if (chosen.path.empty() || std::tie(table.measured, table.date) > std::tie(chosen.measured, chosen.date))
      chosen = table;
  }
  std::vector<fs::path> tables;
  for (const auto& [gpu, table] : by_gpu) tables.push_back(table.path);
  return tables;
}

std::vector<Entry> read_tables(const std::vector<fs::path>& tables) {
  std::vector<Entry> entries;
  for (const fs::path& table : tables) {
    std::ifstream in(table);
    const nlohmann::json j = nlohmann::json::parse(in);
    const perf::GpuSpec* gpu = perf::find_gpu(j.at("device").get<std::string>());
    if (!gpu)
      throw std::runtime_error(table.string() + ": no GPU \"" + j["device"].get<std::string>() + "\"");
    for (const auto& e : j.at("entries")) {
      const PuzzleSpec& spec = lookup_puzzle(std::to_string(e.at("puzzle").get<int>()));
      Entry entry{.table = table.filename().string(),
                  .device = gpu->key,
                  .file = e.at("file"),
                  .puzzle = spec.id,
                  .sweep = e.contains("shape"),
                  .gpu = gpu};
      entry.shape = entry.sweep ? e["shape"].get<std::string>() : e.at("case").get<std::string>();
      const auto& list = entry.sweep ? spec.sweep : spec.cases;
      const auto it =
          std::find_if(list.begin(), list.end(), [&](const TestCase& t) { return t.name == entry.shape; });
      if (it == list.end())
        throw std::runtime_error(table.string() + ": puzzle " + std::to_string(spec.id) + " has no " +
                                 (entry.sweep ? "shape " : "case ") + entry.shape);
      entry.measured_ms = measured_ms(e, spec, it->params);
      entries.push_back(std::move(entry));
    }
  }
  return entries;
}

// The simulator's counts of the given entries, live: one estimate run per file and list, its cases together.
void count_live(const BuildConfig& config, const std::vector<Entry*>& entries) {
  std::map<std::tuple<int, std::string, bool>, std::vector<Entry*>> by_file;
  for (Entry* e : entries) by_file[{e->puzzle, e->file, e->sweep}].push_back(e);
  for (auto& [key, group] : by_file) {
    const auto& [id, file, sweep] = key;
    const PuzzleSpec& spec = lookup_puzzle(std::to_string(id));
    const auto& list = sweep ? spec.sweep : spec.cases;
    CountsRequest request{.sweep = sweep, .timeout = std::chrono::minutes(10)};
    std::map<std::string, int> index_of;
    for (size_t i = 0; i < list.size(); ++i) index_of[list[i].name] = static_cast<int>(i);
    for (const Entry* e : group) {
      if (std::find(request.indices.begin(), request.indices.end(), index_of[e->shape]) ==
          request.indices.end())
        request.indices.push_back(index_of[e->shape]);
    }
    std::fprintf(stderr, "estimating %s on %zu %s\n", file.c_str(), request.indices.size(),
                 sweep ? "shapes" : "cases");
    const PuzzleSource source =
        load_source(spec, SourceKind::file, config.source_dir, config.source_dir / file);
    const EstimateCounts counts = source_counts(config, spec, source, request);
    for (Entry* e : group) {
      const int index = index_of[e->shape];
      if (const auto made = counts.cases.find(index); made != counts.cases.end()) {
        e->counts = made->second;
      } else {
        const auto problem = counts.problems.find(index);
        e->problem = !counts.build.ok                   ? "does not build: " + counts.build.message
                     : problem != counts.problems.end() ? problem->second
                                                        : "no counts";
      }
    }
  }
}

// An entry's name in the stored counts: what was counted, not where it was measured.
std::string counts_key(const Entry& e) {
  return std::to_string(e.puzzle) + " " + e.file + (e.sweep ? " shape " : " case ") + e.shape;
}

nlohmann::json read_counts(const fs::path& folder) {
  std::ifstream in(counts_file(folder));
  if (!in) return nlohmann::json::object();
  return nlohmann::json::parse(in).at("counts");
}

void write_counts(const fs::path& folder, const std::vector<Entry>& entries) {
  nlohmann::json counts = nlohmann::json::object();
  for (const Entry& e : entries) {
    if (e.counts)
      counts[counts_key(e)] = {{"work", e.counts->sim.value("work", nlohmann::json::array())},
                               {"resources", e.counts->resources}};
  }
  std::ofstream out(counts_file(folder));
  out << "{\"note\": \"The simulator's counts behind the speed estimates of the calibration tables beside "
         "this "
         "file, by tests/perf/calibration.cpp --count; the test recounts puzzle 1's ladder to see that they "
         "are "
         "current.\",\n\"counts\": {\n";
  bool first = true;
  for (const auto& [key, value] : counts.items()) {  // one entry a line: a recount's diff reads per kernel
    out << (first ? "" : ",\n") << nlohmann::json(key).dump() << ": " << value.dump();
    first = false;
  }
  out << "\n}}\n";
}

// The stored counts of every entry that has them; the others counted live.
void count(const BuildConfig& config, const fs::path& folder, std::vector<Entry>& entries) {
  const nlohmann::json stored = read_counts(folder);
  std::vector<Entry*> missing;
  for (Entry& e : entries) {
    const auto it = stored.find(counts_key(e));
    if (it == stored.end()) {
      missing.push_back(&e);
      continue;
    }
    e.counts = CaseCounts{.sim = {{"work", (*it)["work"]}},
                          .resources = (*it)["resources"].get<perf::KernelResources>()};
  }
  if (missing.empty()) return;
  std::fprintf(stderr, "%zu entries have no stored counts: counted now (store them with --count)\n",
               missing.size());
  count_live(config, missing);
}

// Puzzle 1's ladder recounted on the simulator: its estimates must be those of the stored counts (within
// 5%: the sample's budget may end a launch a block earlier or later), or the stored counts are stale.
std::vector<std::string> stale_counts(const BuildConfig& config, const std::vector<Entry>& entries) {
  std::vector<Entry> live;
  for (const Entry& e : entries) {
    if (e.puzzle == 1 && e.file.starts_with("solutions/") && e.counts) live.emplace_back(e).counts.reset();
  }
  std::vector<Entry*> recount;
  for (Entry& e : live) recount.push_back(&e);
  count_live(config, recount);
  std::vector<std::string> stale;
  for (const Entry& now : live) {
    const auto stored = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
      return e.table == now.table && counts_key(e) == counts_key(now);
    });
    // The simulator's counts only: both with the stored registers (nvcc's report where the counts were
    // stored; a build without nvcc assumes them), so that the test means the same with or without nvcc.
    const auto ms = [&](const Entry& e) {
      return perf::estimate(*e.gpu, perf::launch_work(e.counts->sim), stored->counts->resources).seconds *
             1e3;
    };
    if (!now.counts) {
      stale.push_back(counts_key(now) + ": no counts now: " + now.problem);
    } else if (const double ratio = ms(now) / ms(*stored); ratio > 1.05 || ratio < 1 / 1.05) {
      char line[512];
      std::snprintf(line, sizeof line, "%s on %s: estimated %.4g ms now, %.4g ms from the stored counts",
                    counts_key(now).c_str(), now.device.c_str(), ms(now), ms(*stored));
      stale.push_back(line);
    }
  }
  return stale;
}

struct Scored {
  const Entry* entry;
  perf::Estimate estimate;
  double ratio() const { return estimate.seconds * 1e3 / entry->measured_ms; }  // estimated / measured
};

std::vector<Scored> score(const std::vector<Entry>& entries, const perf::ModelConstants& constants) {
  std::vector<Scored> scored;
  for (const Entry& e : entries) {
    if (!e.counts) continue;
    scored.push_back(
        {&e, perf::estimate(*e.gpu, perf::launch_work(e.counts->sim), e.counts->resources, constants)});
  }
  return scored;
}

bool within(double ratio, double factor) {
  return ratio <= factor && ratio >= 1 / factor;
}

// A pair of ladder versions (solutions/NN_slug/V_*.cu) whose estimates come in the wrong order.
struct OutOfOrder {
  const Scored* faster;  // as measured
  const Scored* slower;
  bool known() const {
    return known_out_of_order(faster->entry->file, slower->entry->file, faster->entry->shape);
  }
  std::string describe() const {
    const Entry &ea = *faster->entry, &eb = *slower->entry;
    char line[512];
    std::snprintf(line, sizeof line, "%s: %s measured %.4g ms < %s %.4g ms on %s, estimated %.4g >= %.4g ms",
                  ea.table.c_str(), ea.file.c_str(), ea.measured_ms, eb.file.c_str(), eb.measured_ms,
                  ea.shape.c_str(), faster->estimate.seconds * 1e3, slower->estimate.seconds * 1e3);
    return line;
  }
};

std::vector<OutOfOrder> order_violations(const std::vector<Scored>& scored) {
  std::vector<OutOfOrder> violations;
  for (const Scored& a : scored) {
    for (const Scored& b : scored) {
      const Entry &ea = *a.entry, &eb = *b.entry;
      if (ea.table != eb.table || ea.puzzle != eb.puzzle || ea.shape != eb.shape || ea.file == eb.file)
        continue;
      if (!ea.file.starts_with("solutions/") || !eb.file.starts_with("solutions/")) continue;
      if (ea.measured_ms * kSameSpeed > eb.measured_ms) continue;  // a not clearly faster than b
      if (a.estimate.upper_bound || b.estimate.upper_bound) continue;
      if (a.estimate.seconds < b.estimate.seconds) continue;
      violations.push_back({&a, &b});
    }
  }
  return violations;
}

double loss(const std::vector<Scored>& scored) {
  double sum = 0;
  for (const Scored& s : scored) {
    if (s.estimate.upper_bound || s.estimate.lower_bound) continue;
    sum += std::pow(std::log(s.ratio()), 2);
  }
  return sum + 0.5 * static_cast<double>(order_violations(scored).size());
}

int check(const std::vector<Entry>& entries, const std::vector<std::string>& stale) {
  const std::vector<Scored> scored = score(entries, {});
  std::printf("%-6s %-4s %-48s %-20s %11s %11s %7s\n", "gpu", "p", "file", "case or shape", "measured",
              "estimated", "ratio");
  std::map<std::string, std::vector<double>> per_puzzle;
  int within_2 = 0, within_15 = 0;
  for (const Scored& s : scored) {
    const Entry& e = *s.entry;
    std::printf("%-6s %-4d %-48s %-20s %8.4g ms %8.4g ms %7.2f%s\n", e.device.c_str(), e.puzzle,
                e.file.c_str(), e.shape.c_str(), e.measured_ms, s.estimate.seconds * 1e3, s.ratio(),
                s.estimate.upper_bound   ? "  (upper bound: blocks wait for one another)"
                : s.estimate.lower_bound ? "  (lower bound: a block stopped at the budget)"
                                         : "");
    within_2 += within(s.ratio(), kWithin);
    within_15 += within(s.ratio(), 1.5);
    per_puzzle[e.device + " puzzle " + std::to_string(e.puzzle)].push_back(s.ratio());
  }
  for (const Entry& e : entries) {
    if (!e.counts)
      std::printf("%s %d %s %s: no estimate: %s\n", e.device.c_str(), e.puzzle, e.file.c_str(),
                  e.shape.c_str(), e.problem.c_str());
  }
  std::printf("\nerror per puzzle (estimated / measured): geometric mean, least, most\n");
  for (const auto& [name, ratios] : per_puzzle) {
    double logs = 0;
    for (double r : ratios) logs += std::log(r);
    std::printf("  %-18s %5.2f  %5.2f  %5.2f  (%zu kernels x cases)\n", name.c_str(),
                std::exp(logs / ratios.size()), *std::min_element(ratios.begin(), ratios.end()),
                *std::max_element(ratios.begin(), ratios.end()), ratios.size());
  }
  const double n = static_cast<double>(entries.size());
  std::printf(
      "\n%d of %zu within 2x (%.0f%%), %d within 1.5x (%.0f%%); the goal: %.0f%% within 2x; the "
      "test's floor (what the model reached): %.0f%%\n",
      within_2, entries.size(), 100 * within_2 / n, within_15, 100 * within_15 / n, 100 * kTarget,
      100 * kReached);
  int new_violations = 0;
  for (const OutOfOrder& pair : order_violations(scored)) {
    new_violations += !pair.known();
    std::printf("out of order%s: %s\n", pair.known() ? " (known)" : "", pair.describe().c_str());
  }
  for (const std::string& line : stale)
    std::printf("stale stored counts (recount with --count): %s\n", line.c_str());
  const bool ok = within_2 >= kReached * n && new_violations == 0 && stale.empty();
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// Coordinate descent over the constants, each multiplied by a few factors in turn, keeping what lowers the
// loss (the squared log errors, and a penalty per pair of versions out of order).
int fit(const std::vector<Entry>& entries) {
  perf::ModelConstants best;
  double best_loss = loss(score(entries, best));
  // Each constant within what the hardware makes plausible (published microbenchmarks of Hopper): a fit
  // must not explain one kernel's error with a 20 us DRAM latency.
  struct Knob {
    const char* name;
    double perf::ModelConstants::*member;
    double least, most;
  };
  using K = perf::ModelConstants;
  const Knob knobs[] = {{"instructions_per_operator", &K::instructions_per_operator, 0.4, 1.5},
                        {"special_issue", &K::special_issue, 2, 12},
                        {"mma_sync_share", &K::mma_sync_share, 0.4, 0.9},
                        {"wgmma_share", &K::wgmma_share, 0.5, 0.9},
                        {"l2_bytes_per_sm_clock", &K::l2_bytes_per_sm_clock, 32, 128},
                        {"loads_in_flight", &K::loads_in_flight, 1, 16},
                        {"operator_chain", &K::operator_chain, 0.5, 4},
                        {"special_chain", &K::special_chain, 4, 40},
                        {"shared_chain", &K::shared_chain, 4, 40},
                        {"collective_chain", &K::collective_chain, 10, 60},
                        {"barrier_chain", &K::barrier_chain, 20, 500},
                        {"tensor_chain", &K::tensor_chain, 4, 40},
                        {"usable_l2", &K::usable_l2, 0.3, 1},
                        {"l2_latency", &K::l2_latency, 150, 500},
                        {"dram_latency", &K::dram_latency, 500, 2000},
                        {"overlap", &K::overlap, 2, 16},
                        {"block_cycles", &K::block_cycles, 0, 5000}};
  for (int round = 0; round < 6; ++round) {
    for (const Knob& knob : knobs) {
      for (const double factor : {0.5, 0.7, 0.85, 1.18, 1.4, 2.0}) {
        perf::ModelConstants tried = best;
        tried.*knob.member = std::clamp(tried.*knob.member * factor, knob.least, knob.most);
        const double l = loss(score(entries, tried));
        if (l < best_loss - 1e-9) {
          best_loss = l;
          best = tried;
        }
      }
    }
    std::printf("round %d: loss %.3f\n", round, best_loss);
  }
  for (const Knob& knob : knobs) std::printf("  %s = %.4g\n", knob.name, best.*knob.member);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  // --count PUZZLE: recount that puzzle's entries only (after a change that touches no other), keep the rest.
  if ((argc != 3 && !(argc == 4 && mode == "--count")) ||
      (mode != "--check" && mode != "--count" && mode != "--fit")) {
    std::fprintf(stderr,
                 "usage: %s --check|--count|--fit docs/measurements, or --count docs/measurements PUZZLE\n",
                 argv[0]);
    return 2;
  }
  try {
    const fs::path folder = argv[2];
    const std::vector<fs::path> tables = chosen_tables(folder);
    for (const fs::path& table : tables) std::printf("table: %s\n", table.filename().c_str());
    std::vector<Entry> entries = read_tables(tables);
    const BuildConfig config = build_config();
    if (mode == "--count") {
      const std::optional<int> only = argc == 4 ? std::optional(std::stoi(argv[3])) : std::nullopt;
      if (only) count(config, folder, entries);  // the other puzzles' stored counts
      std::vector<Entry*> recount;
      for (Entry& e : entries)
        if (!only || e.puzzle == *only) recount.push_back(&e);
      count_live(config, recount);
      write_counts(folder, entries);
    } else {
      count(config, folder, entries);
    }
    if (mode == "--fit") return fit(entries);
    return check(entries, mode == "--check" ? stale_counts(config, entries) : std::vector<std::string>{});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
