#include "report/check_console.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "compare.hpp"
#include "report/estimate_text.hpp"
#include "report/text_format.hpp"
#include "support/text_pattern.hpp"

namespace puzzle::cli {
namespace {

constexpr size_t kOutputLinesShown = 20;  // of the program's stdout / stderr, without --verbose
constexpr size_t kBuildLogLinesShown = 40;
constexpr size_t kFailuresDetailed = 3;  // failed cases explained in full, without --verbose
constexpr size_t kTagWidth = 9;          // "TIMEOUT" and a space

struct Tag {
  const char* text;
  Tone tone;
};

Tag tag_for(CaseStatus s) {
  switch (s) {
    case CaseStatus::passed:
      return {"PASS", Tone::good};
    case CaseStatus::failed:
      return {"FAIL", Tone::bad};
    case CaseStatus::crashed:
      return {"CRASH", Tone::bad};
    case CaseStatus::timeout:
      return {"TIMEOUT", Tone::bad};
    case CaseStatus::skipped:
      return {"SKIP", Tone::dim};
  }
  return {"?", Tone::dim};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Values with a float's precision (so that near misses differ in print), errors with 4 digits.
std::string value_text(double v, int digits = 4) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return significant(v, digits);
}
constexpr int kFloatDigits = 9;  // enough to tell any two floats apart

std::string speed_text(const CaseReport& c) {
  const CaseResult& r = c.result;
  std::string text;
  if (r.tflops) text = fixed(*r.tflops, 1) + " TFLOP/s";
  if (r.gbps) {
    text += (text.empty() ? "" : ", ") + fixed(*r.gbps, 1) + " GB/s";
    if (r.pct_of_copy) text += " = " + fixed(*r.pct_of_copy, 0) + "% of copy bandwidth";
  }
  if (c.solution_tflops) {
    text += " (reference solution " + fixed(*c.solution_tflops, 1) + " TFLOP/s)";
  } else if (r.solution_gbps) {
    text += " (reference solution " + fixed(*r.solution_gbps, 1) + " GB/s)";
  }
  return text;
}

// Notes that every passed case has (say, the same traffic ratios), printed once instead of under each.
std::set<std::string> notes_of_every_passed_case(const PuzzleReport& p) {
  std::vector<const CaseReport*> passed;
  for (const auto& c : p.cases) {
    if (c.result.status == CaseStatus::passed) passed.push_back(&c);
  }
  if (passed.size() < 2) return {};
  std::set<std::string> shared(passed.front()->result.notes.begin(), passed.front()->result.notes.end());
  for (const CaseReport* c : passed) {
    std::erase_if(shared, [&](const std::string& note) {
      return std::find(c->result.notes.begin(), c->result.notes.end(), note) == c->result.notes.end();
    });
  }
  return shared;
}

// The failed cases to explain in full, in order (nullptr for each one only counted): the first few, and
// after them the first to carry each reading none of those has, so that a diagnosis found only on a later,
// larger case (a pattern across many tiles) reaches the learner.
std::vector<const CaseReport*> detailed_cases(const PuzzleReport& p, bool verbose) {
  std::vector<const CaseReport*> shown;
  std::set<std::string> readings;
  size_t detailed = 0, extra = 0;
  for (const auto& c : p.cases) {
    if (c.result.status == CaseStatus::passed || c.result.status == CaseStatus::skipped) continue;
    const Diagnosis* why = most_specific_diagnosis(c.result);
    const bool news = why && !readings.contains(why->id) && extra < kFailuresDetailed;
    if (verbose || detailed < kFailuresDetailed || news) {
      extra += detailed >= kFailuresDetailed;
      ++detailed;
      if (why) readings.insert(why->id);
      shown.push_back(&c);
    } else {
      shown.push_back(nullptr);
    }
  }
  return shown;
}

}  // namespace

void ConsoleReport::not_started(const PuzzleReport& p) {
  const CaseReport* first = nullptr;
  bool untouched = true;  // every output of every case still the poison: the stub as it came
  for (const CaseReport& c : p.cases) {
    if (c.needs_gpu || c.result.status == CaseStatus::skipped) continue;
    if (!first) first = &c;
    for (const BufferCheck& b : c.result.checks)
      untouched = untouched && b.available && b.unwritten == b.elements;
  }
  out_ << "  " << style_(padded("FAIL", kTagWidth), Tone::bad) << "every case (" << counted_cases(p)
       << "): " << first->result.message << "\n";
  if (untouched) {
    out_ << "\nNot started? Write the kernel and the launcher in " << shown(p.file)
         << "; its spec is at the top.\n";
  } else {
    case_details(*first);  // outputs written some other way: say what counts
  }
  summary(p);
}

std::string ConsoleReport::shown(const std::filesystem::path& file) const {
  const auto relative = file.lexically_relative(base_dir_);
  if (!base_dir_.empty() && !relative.empty() && *relative.begin() != "..") return relative.string();
  return file.string();
}

void ConsoleReport::header(const CheckReport& report) {
  const PuzzleReport& p = report.puzzles.front();
  out_ << style_("puzzle " + std::to_string(p.spec->id) + ": " + p.spec->title, Tone::bold) << "\n";
  out_ << "file:    " << shown(p.file) << (p.source == SourceKind::solution ? "  (reference solution)" : "")
       << "\n";
  out_ << "backend: ";
  if (*report.backend == Backend::gpu) {
    out_ << "GPU, " << report.device.name;
    if (report.device.compute_capability)
      out_ << " (compute capability " << *report.device.compute_capability << ")";
    out_ << " - " << report.backend_reason << "\n";
  } else {
    out_ << "simulator (" << report.backend_reason << ")\n";
  }
  out_ << "seed:    " << report.seed << " (reproduce with --seed " << report.seed << ")\n";
  out_.flush();
}

void ConsoleReport::build(const PuzzleReport& puzzle) {
  const BuildInfo& b = puzzle.build;
  if (verbose_) {
    for (const auto& command : b.commands) out_ << style_("$ " + command, Tone::dim) << "\n";
  }
  out_ << "build:   ";
  if (b.ok) {
    out_ << style_("ok", Tone::good)
         << (b.cached ? " (unchanged since the last build, reused)" : " in " + format_seconds(b.seconds))
         << "\n";
    if (b.cuda_rules.empty()) out_ << "  " << style_(kNotCheckedAgainstCuda, Tone::warn) << "\n";
    if (verbose_ && !b.log.empty()) out_ << b.log;
  } else {
    out_ << style_("FAILED", Tone::bad) << " after " << format_seconds(b.seconds) << ": " << b.message
         << "\n";
    const auto lines = lines_of(b.log);
    const size_t shown_lines = verbose_ ? lines.size() : std::min(lines.size(), kBuildLogLinesShown);
    for (size_t i = 0; i < shown_lines; ++i) out_ << "  " << lines[i] << "\n";
    if (shown_lines < lines.size()) {
      out_ << style_("  (" + std::to_string(lines.size() - shown_lines) +
                         " more lines of compiler output not shown; --verbose shows them)",
                     Tone::dim)
           << "\n";
    }
  }
  out_.flush();
}

void ConsoleReport::running(const std::string& what) {
  out_ << style_(what, Tone::dim) << "\n";
  out_.flush();
}

void ConsoleReport::case_line(const CaseReport& c, size_t name_width, size_t shape_width,
                              const std::set<std::string>& shared_notes) {
  const CaseResult& r = c.result;
  const Tag tag = tag_for(r.status);
  const std::string detail = r.status == CaseStatus::passed ? speed_text(c)
                             : c.estimate                   ? "timed on a GPU; " + estimate_line(*c.estimate)
                                                            : r.message;
  const std::string shape = shape_of(r.params);
  out_ << "  " << style_(padded(tag.text, kTagWidth), tag.tone) << padded(r.name, name_width + 2)
       << (detail.empty() ? shape : padded(shape, shape_width + 2) + detail) << "\n";
  if (c.estimate) {
    out_ << "      " << style_(counters_line(*c.estimate), Tone::dim) << "\n";
    if (const std::string slow = slow_line(*c.estimate); !slow.empty())
      out_ << "      " << style_("slow: " + slow, Tone::warn) << "\n";
  }
  if (r.status != CaseStatus::passed) return;  // a failed case's notes are in its details
  for (const auto& note : r.notes) {
    if (!shared_notes.contains(note)) out_ << "      " << style_(note, Tone::dim) << "\n";
  }
}

void ConsoleReport::case_details(const CaseReport& c) {
  const CaseResult& r = c.result;
  const Tag tag = tag_for(r.status);
  out_ << "\n"
       << style_(tag.text, tag.tone) << " " << r.name << " (" << shape_of(r.params) << "): " << r.message
       << "\n";
  for (const auto& b : r.checks) {
    if (b.mismatches == 0 && b.guard_before == 0 && b.guard_after == 0) continue;
    const std::string type = b.dtype == Dtype::f32 ? "" : std::string(" (") + dtype_name(b.dtype) + ")";
    out_ << "  " << b.name << type << ": " << b.mismatches << " of " << b.elements << " wrong ("
         << b.nan_count << " NaN, " << b.inf_count << " inf, " << b.unwritten << " never written), "
         << b.guard_before + b.guard_after << " out-of-bounds writes; max abs err "
         << value_text(b.max_abs_err) << ", max rel err " << value_text(b.max_rel_err) << "\n";
    if (b.first.empty()) continue;
    size_t width = 8;
    for (const auto& m : b.first) width = std::max(width, m.location.size());
    out_ << "    " << padded("location", width + 2) << padded("expected", 17) << padded("got", 17)
         << "diff\n";
    for (const auto& m : b.first) {
      const bool unwritten = is_poison(m.got);
      out_ << "    " << padded(m.location, width + 2) << padded(value_text(m.expected, kFloatDigits), 17)
           << padded(unwritten ? "never written" : value_text(m.got, kFloatDigits), 17)
           << (unwritten ? "-" : value_text(static_cast<double>(m.got) - m.expected)) << "\n";
    }
  }
  // The simulator's findings come with file:line; of the harness's readings of the evidence, the most
  // specific is the "why" (--verbose shows them all).
  const Diagnosis* why = most_specific_diagnosis(r);
  size_t other_readings = 0;
  for (const auto& d : r.diagnoses) {
    const bool finding = d.id.starts_with("sim_");
    if (!finding && &d != why && !verbose_) {
      ++other_readings;
      continue;
    }
    out_ << "  " << style_(finding ? "simulator:" : "why:", Tone::warn) << " " << relative_paths(d.message)
         << "\n";
  }
  if (other_readings > 0) {
    out_ << "  "
         << style_("(" + std::to_string(other_readings) + " broader reading" +
                       (other_readings == 1 ? "" : "s") + " of this case: --verbose shows " +
                       (other_readings == 1 ? "it" : "them") + ")",
                   Tone::dim)
         << "\n";
  }
  for (const auto& note : r.notes) out_ << "  note: " << relative_paths(note) << "\n";
}

std::string ConsoleReport::relative_paths(const std::string& text) const {
  // Every "FILE:LINE" of a source file, absolute ones made relative to where the learner stands, and a bare
  // file name that the same text also gives in full written the same way.
  static const TextPattern located(R"(([^\s(),:;]+\.(cu|cuh|cpp|hpp|h)):(\d+))");
  const std::vector<PatternMatch> places = located.find_all(text);
  std::map<std::string, std::string> by_name;  // "k.cu" -> "puzzles/01/k.cu"
  for (const PatternMatch& m : places) {
    const std::filesystem::path file = m[1];
    if (file.is_absolute()) by_name[file.filename().string()] = shown(file);
  }
  std::string out;
  size_t last = 0;
  for (const PatternMatch& m : places) {
    const std::filesystem::path file = m[1];
    out.append(text, last, m.start(1) - last);
    const auto full = by_name.find(file.string());
    out += file.is_absolute() ? shown(file) : full != by_name.end() ? full->second : file.string();
    last = m.end(1);
  }
  out.append(text, last);
  return out;
}

void ConsoleReport::program_output(const std::string& name, const std::string& text) {
  if (text.empty()) return;
  const auto lines = lines_of(text);
  const size_t shown_lines = verbose_ ? lines.size() : std::min(lines.size(), kOutputLinesShown);
  out_ << "\nyour program's " << name << ":\n";
  for (size_t i = 0; i < shown_lines; ++i) out_ << "  | " << lines[i] << "\n";
  if (shown_lines < lines.size()) {
    out_ << style_("  (" + std::to_string(lines.size() - shown_lines) +
                       " more lines not shown; --verbose shows them)",
                   Tone::dim)
         << "\n";
  }
}

void ConsoleReport::summary(const PuzzleReport& p) {
  out_ << "\n";
  if (p.status == PuzzleStatus::compile_error) {
    out_ << style_("FAILED", Tone::bad)
         << ": the file did not build; fix the first error above and check again\n";
  } else {
    const int passed = passed_cases(p), counted = counted_cases(p);
    const int gpu_only = static_cast<int>(p.cases.size()) - counted;
    const bool ok = p.status == PuzzleStatus::passed;
    out_ << style_(ok ? "PASSED" : "FAILED", ok ? Tone::good : Tone::bad) << ": " << passed << "/" << counted
         << " cases passed, score " << p.score << "/" << p.max_score;
    if (gpu_only > 0) out_ << " (" << gpu_only << " more need a GPU)";
    out_ << "\n";
    if (ok) return;
  }
  out_ << "Stuck? `puzzle hint " << p.spec->id << "` gives a hint; the puzzle's page is " << p.spec->docs
       << "\n";
}

// The most device memory the launcher held in any case (a workspace kept from earlier calls included), once:
// per case it would repeat on every line.
void ConsoleReport::scratch_line(const PuzzleReport& p) {
  const CaseReport* largest = nullptr;
  for (const auto& c : p.cases) {
    const uint64_t bytes = c.result.record.scratch_bytes;
    if (bytes == protocol::kUnknownBytes || bytes == 0) continue;
    if (!largest || bytes > largest->result.record.scratch_bytes) largest = &c;
  }
  if (!largest) return;
  out_ << "  "
       << style_("device memory the launcher held: at most " +
                     format_bytes(static_cast<double>(largest->result.record.scratch_bytes)) + " (case " +
                     largest->result.name + ")",
                 Tone::dim)
       << "\n";
}

void ConsoleReport::results(const CheckReport& report) {
  for (const PuzzleReport& p : report.puzzles) {
    if (!p.build.ok) {
      summary(p);
      continue;
    }
    size_t name_width = 4, shape_width = 0;
    for (const auto& c : p.cases) {
      name_width = std::max(name_width, c.result.name.size());
      shape_width = std::max(shape_width, shape_of(c.result.params).size());
    }
    out_ << "\n";
    if (nothing_launched(p)) {  // an untouched stub: said once, not on every case
      not_started(p);
      continue;
    }
    const auto shared = notes_of_every_passed_case(p);
    for (const auto& c : p.cases) case_line(c, name_width, shape_width, shared);
    for (const auto& note : shared) out_ << "  " << style_("every passed case: " + note, Tone::dim) << "\n";
    scratch_line(p);
    if (report.backend == Backend::sim &&
        std::any_of(p.spec->cases.begin(), p.spec->cases.end(), [](const TestCase& t) { return t.perf; })) {
      const bool estimated = std::any_of(p.cases.begin(), p.cases.end(),
                                         [](const CaseReport& c) { return c.estimate.has_value(); });
      out_ << "  "
           << style_(estimated ? "speed: estimated from what the simulator counted (docs/simulator.md, "
                                 "\"Estimated speed\"); "
                                 "a GPU times it"
                               : "speed: timing needs a GPU; the traffic notes say what your kernels moved",
                     Tone::dim)
           << "\n";
    }
    size_t not_detailed = 0;
    for (const CaseReport* c : detailed_cases(p, verbose_)) {
      if (c) {
        case_details(*c);
      } else {
        ++not_detailed;
      }
    }
    if (not_detailed > 0) {
      out_ << "\n"
           << style_(
                  "(" + std::to_string(not_detailed) +
                      " more failed cases not shown in detail: --verbose shows them, --case NAME checks one)",
                  Tone::dim)
           << "\n";
    }
    program_output("stdout", p.program_stdout);
    program_output("stderr", p.program_stderr);
    summary(p);
  }
  out_.flush();
}

}  // namespace puzzle::cli
