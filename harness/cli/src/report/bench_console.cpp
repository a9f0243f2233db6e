#include "report/bench_console.hpp"

#include <algorithm>

#include "protocol.hpp"
#include "report/text_format.hpp"

namespace puzzle::cli {
namespace {

constexpr size_t kShapeWidth = 14;

constexpr size_t kColumnWidth = 9;

std::string right(std::string text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

// The shape column: wide enough for the longest name ("d128_n16384_causal"), so that the rows align.
size_t shape_width(const BenchReport& report) {
  size_t width = kShapeWidth;
  for (const TestCase* shape : report.shapes) width = std::max(width, shape->name.size() + 2);
  return width;
}

bool shows_memory(const BenchReport& report) {
  return std::any_of(report.kernels.begin(), report.kernels.end(), [](const BenchKernel& k) {
    return std::any_of(k.timings.begin(), k.timings.end(),
                       [](const BenchTiming& t) { return t.memory_bytes.value_or(0) > 0; });
  });
}

// PyTorch's columns have no memory figure: the launcher's allocations are ours to count, not torch's.
std::vector<std::string> columns_of(const BenchReport& report, const BenchSeries& series) {
  std::vector<std::string> columns{"ms", report.metric};
  if (report.metric == "GB/s" && report.device.copy_gbps) columns.push_back("of copy");
  if (!series.torch && shows_memory(report)) columns.push_back("memory");
  return columns;
}

std::string missing_mark(const BenchSeries& series, const BenchTiming& t) {
  if (!series.torch) return "[!]";
  if (t.problem == "out of memory") return "OOM";
  return t.problem.starts_with("n/a") ? "n/a" : "[!]";
}

std::vector<std::string> cells_of(const BenchReport& report, const BenchSeries& series, const BenchTiming& t,
                                  size_t columns) {
  std::vector<std::string> cells(columns, "-");
  if (t.time_ms) {
    cells[0] = (t.at_least ? ">" : "") + fixed(*t.time_ms, *t.time_ms < 1 ? 3 : 2);
    cells[1] = fixed(*t.rate, 1);
    if (report.metric == "GB/s" && report.device.copy_gbps)
      cells[2] = fixed(100 * *t.rate / *report.device.copy_gbps, 0) + "%";
  } else {
    cells[0] = missing_mark(series, t);
  }
  if (!series.torch && shows_memory(report) && t.memory_bytes)
    cells.back() = format_bytes(static_cast<double>(*t.memory_bytes));
  return cells;
}

bool never_timed(const BenchSeries& series) {
  return std::none_of(series.timings.begin(), series.timings.end(),
                      [](const BenchTiming& t) { return t.time_ms.has_value(); });
}

// A PyTorch column with no figure on any shape (flash in fp32, say) takes a line, not a column of "n/a".
void print_untimed_column(std::ostream& out, Style style, const BenchReport& report,
                          const BenchSeries& series) {
  const bool one_reason =
      std::all_of(series.timings.begin(), series.timings.end(),
                  [&](const BenchTiming& t) { return t.problem == series.timings[0].problem; });
  if (one_reason) {
    out << style(series.label + ": " + series.timings[0].problem + " (every shape)", Tone::dim) << "\n";
    return;
  }
  for (size_t s = 0; s < report.shapes.size(); ++s)
    out << style(series.label + " on " + report.shapes[s]->name + ": " + series.timings[s].problem, Tone::dim)
        << "\n";
}

void print_table(std::ostream& out, Style style, const BenchReport& report) {
  std::vector<BenchSeries> shown, untimed;
  for (const BenchSeries& series : bench_series(report))
    (series.torch && never_timed(series) ? untimed : shown).push_back(series);
  const size_t shape_column = shape_width(report);
  std::string title = padded("shape", shape_column), units = std::string(shape_column, ' ');
  for (const BenchSeries& series : shown) {
    const auto columns = columns_of(report, series);
    title += "  " + padded(series.label, columns.size() * kColumnWidth);
    units += "  ";
    for (const auto& c : columns) units += right(c, kColumnWidth);
  }
  out << style(title, Tone::bold) << "\n" << style(units, Tone::dim) << "\n";
  for (size_t s = 0; s < report.shapes.size(); ++s) {
    out << padded(report.shapes[s]->name, shape_column);
    for (const BenchSeries& series : shown) {
      out << "  ";
      for (const auto& cell : cells_of(report, series, series.timings[s], columns_of(report, series).size()))
        out << right(cell, kColumnWidth);
    }
    out << "\n";
  }
  for (const BenchSeries& series : shown) {
    for (size_t s = 0; s < report.shapes.size(); ++s) {
      const std::string& problem = series.timings[s].problem;
      if (problem.empty()) continue;
      const std::string note = series.label + " on " + report.shapes[s]->name + ": " + problem;
      out << (series.torch ? style(note, Tone::dim) : style("[!] ", Tone::warn) + note) << "\n";
    }
  }
  for (const BenchSeries& series : untimed) print_untimed_column(out, style, report, series);
}

// Where PyTorch's columns come from, or why there are none.
void print_torch_source(std::ostream& out, const BenchReport& report) {
  const TorchColumns& torch = report.torch;
  out << "torch:   "
      << (torch.absent.empty()
              ? torch.version + " on " + torch.device +
                    ", timed by baselines/torch_bench.py as the kernels are (" +
                    (report.spec->inputs.empty() || report.spec->inputs[0].dtype == Dtype::f32
                         ? std::string("float32, TF32 off")
                         : std::string(dtype_name(report.spec->inputs[0].dtype))) +
                    ")"
              : torch.absent)
      << "\n";
}

void print_traffic(std::ostream& out, const BenchReport& report) {
  out << "timing needs a GPU; here is how much memory traffic " << report.traffic_kernel
      << " makes on the simulator instead\n";
  for (const TrafficCase& t : report.traffic) {
    out << "case " << t.name << " (" << t.status << "):";
    double moved = 0;
    for (const TrafficBuffer& b : t.buffers) {
      moved += static_cast<double>(b.bytes_read + b.bytes_written);
      if (b.size == 0) continue;
      const double size = static_cast<double>(b.size);
      std::string parts;
      if (b.bytes_read > 0) parts += " read " + fixed(static_cast<double>(b.bytes_read) / size, 2) + "x";
      if (b.bytes_written > 0)
        parts += (parts.empty() ? "" : ",") + std::string(" written ") +
                 fixed(static_cast<double>(b.bytes_written) / size, 2) + "x";
      out << "  " << b.label << (parts.empty() ? " untouched" : parts) << ";";
    }
    out << "  moved " << format_bytes(moved);
    if (t.minimum_bytes > 0) out << " = " << fixed(moved / t.minimum_bytes, 2) << "x the minimum";
    out << "\n";
  }
  out << "budget: " << report.spec->traffic_budget << "\n";
}

}  // namespace

void print_bench_header(std::ostream& out, Style style, const BenchReport& report) {
  out << style("puzzle bench " + std::to_string(report.spec->id) + ": " + report.spec->title, Tone::bold)
      << "\n";
  if (*report.backend == Backend::sim) {
    out << "backend: simulator (" << report.backend_reason << ")\n";
    out << "times:   estimated on an " << report.estimated_on
        << " from what the simulator counts (docs/simulator.md, \"Estimated speed\"), not measured; > marks "
           "a lower bound\n";
  } else {
    out << "device:  " << report.device.name;
    if (report.device.copy_gbps) out << ", copy bandwidth " << fixed(*report.device.copy_gbps, 0) << " GB/s";
    const protocol::Job timing;
    out << "\ntiming:  median of " << timing.reps << " runs after " << timing.warmup
        << " warm-ups (fewer for a kernel slower than 100 ms), each queued behind a busy-wait so that the "
           "launch is not timed, inputs rotated through more than 3x the L2 cache\n";
  }
  out.flush();
}

void print_bench_kernel(std::ostream& out, Style style, const BenchKernel& kernel, bool verbose) {
  out << padded(kernel.label, 10) << " " << kernel.file.filename().string() << ": ";
  if (kernel.build.ok) {
    out << "built" << (kernel.build.cached ? " (reused)" : " in " + format_seconds(kernel.build.seconds))
        << ", timing ...\n";
  } else {
    out << style("does not compile", Tone::bad) << " (" << kernel.build.message
        << "); `puzzle check` shows the compiler's errors\n";
  }
  if (verbose) {
    for (const auto& command : kernel.build.commands) out << style("$ " + command, Tone::dim) << "\n";
  }
  out.flush();
}

void print_bench_shape(std::ostream& out, Style style, const BenchReport& report, const TestCase& shape,
                       const BenchTiming& timing) {
  out << "  " << padded(shape.name, shape_width(report));
  if (timing.time_ms) {
    out << style((timing.at_least ? "at least " : "") + fixed(*timing.time_ms, *timing.time_ms < 1 ? 3 : 2) +
                     " ms  " + fixed(*timing.rate, 1) + " " + report.metric +
                     (report.estimated_on.empty() ? "" : " (estimated)"),
                 Tone::dim);
  } else {
    out << style(timing.problem, Tone::warn);
  }
  out << "\n";
  out.flush();
}

void print_bench_torch(std::ostream& out, const std::string& command) {
  out << padded("torch", 10) << " " << command << ": timing ...\n";
  out.flush();
}

void print_bench_torch_shape(std::ostream& out, Style style, const BenchReport& report, const TestCase& shape,
                             const TorchColumns& torch, size_t index) {
  std::string figures;
  for (const TorchColumn& column : torch.columns) {
    const BenchTiming& t = column.timings[index];
    figures += (figures.empty() ? "" : ", ") + column.label + " ";
    figures += t.time_ms ? fixed(*t.time_ms, *t.time_ms < 1 ? 3 : 2) + " ms  " + fixed(*t.rate, 1) + " " +
                               report.metric
               : t.problem.starts_with("n/a") ? "n/a"
                                              : t.problem;  // the reason comes under the table
  }
  out << "  " << padded(shape.name, shape_width(report)) << style(figures, Tone::dim) << "\n";
  out.flush();
}

void print_bench_results(std::ostream& out, Style style, const BenchReport& report) {
  out << "\n";
  if (!report.kernels.empty()) print_table(out, style, report);
  if (*report.backend == Backend::sim) {
    if (!report.traffic.empty()) print_traffic(out, report);
  } else {
    print_torch_source(out, report);
  }
  if (report.chart) out << "chart:   " << report.chart->string() << "\n";
}

}  // namespace puzzle::cli
