#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

#include "report/bench_files.hpp"
#include "report/text_format.hpp"
#include "report/xml_text.hpp"

namespace puzzle::cli {
namespace {

constexpr double kLeft = 70, kTop = 60, kPlotHeight = 260, kBottom = 50;
constexpr double kBarWidth = 26, kGroupGap = 34;
// Ours first, then PyTorch's columns (up to 4 SDPA backends) in colours of their own.
constexpr const char* kColors[] = {"#4c72b0", "#55a868", "#c44e52", "#8172b2",
                                   "#ccb974", "#64b5cd", "#8c8c8c", "#dd8452"};
constexpr size_t kColorCount = std::size(kColors);

// A round top for the axis: 1, 2 or 5 times a power of ten, at least `value`.
double nice_ceiling(double value) {
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

}  // namespace

std::string bench_chart_svg(const BenchReport& report) {
  const std::vector<BenchSeries> series = bench_series(report);
  const size_t kernels = series.size(), shapes = report.shapes.size();
  const bool copy_line = report.metric == "GB/s" && report.device.copy_gbps;
  double top = copy_line ? *report.device.copy_gbps : 0;
  for (const BenchSeries& k : series) {
    for (const BenchTiming& t : k.timings) top = std::max(top, t.rate.value_or(0));
  }
  top = nice_ceiling(std::max(top * 1.05, 1e-9));
  const double group = kernels * kBarWidth + kGroupGap;
  // Wide enough for the legend (150 px a kernel) and the title, even with one shape.
  const double width = std::max({kLeft + shapes * group + 20, kLeft + 150.0 * kernels + 20, 480.0});
  const double height = kTop + kPlotHeight + kBottom;
  const auto y_of = [&](double value) { return kTop + kPlotHeight * (1 - value / top); };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft << "\" y=\"18\" font-size=\"14\" font-weight=\"bold\">"
      << xml_escaped("puzzle bench " + std::to_string(report.spec->id) + ": " + report.spec->title)
      << "</text>\n"
      << "<text x=\"" << kLeft << "\" y=\"34\">" << xml_escaped(report.device.name + ", " + report.created)
      << "</text>\n";
  for (size_t k = 0; k < kernels; ++k) {  // legend
    const double x = kLeft + 150.0 * k;
    svg << "<rect x=\"" << x << "\" y=\"42\" width=\"10\" height=\"10\" fill=\"" << kColors[k % kColorCount]
        << "\"/>"
        << "<text x=\"" << x + 14 << "\" y=\"51\">" << xml_escaped(series[k].label) << "</text>\n";
  }
  for (int tick = 0; tick <= 5; ++tick) {  // y axis with grid lines
    const double value = top * tick / 5, y = y_of(value);
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << width - 20 << "\" y1=\"" << y << "\" y2=\"" << y
        << "\" stroke=\"#ddd\"/><text x=\"" << kLeft - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">"
        << fixed(value, value < 10 ? 1 : 0) << "</text>\n";
  }
  svg << "<text transform=\"translate(16," << kTop + kPlotHeight / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << xml_escaped(report.metric) << "</text>\n";
  for (size_t s = 0; s < shapes; ++s) {
    const double x0 = kLeft + s * group + kGroupGap / 2;
    for (size_t k = 0; k < kernels; ++k) {
      const BenchTiming& t = series[k].timings[s];
      const double x = x0 + k * kBarWidth;
      if (!t.rate) {  // no bar: say why in one mark
        svg << "<text x=\"" << x + kBarWidth / 2 << "\" y=\"" << y_of(0) - 4
            << "\" text-anchor=\"middle\" fill=\"" << kColors[k % kColorCount] << "\">"
            << (t.problem == "out of memory" ? "OOM" : "n/a") << "</text>\n";
        continue;
      }
      const double y = y_of(*t.rate);
      svg << "<rect x=\"" << x + 1 << "\" y=\"" << y << "\" width=\"" << kBarWidth - 2 << "\" height=\""
          << y_of(0) - y << "\" fill=\"" << kColors[k % kColorCount] << "\"><title>"
          << xml_escaped(series[k].label + ", " + report.shapes[s]->name + ": " + fixed(*t.rate, 1) + " " +
                         report.metric)
          << "</title></rect>\n<text x=\"" << x + kBarWidth / 2 << "\" y=\"" << y - 3
          << "\" text-anchor=\"middle\" font-size=\"9\">" << fixed(*t.rate, *t.rate < 100 ? 1 : 0)
          << "</text>\n";
    }
    svg << "<text x=\"" << x0 + kernels * kBarWidth / 2 << "\" y=\"" << y_of(0) + 16
        << "\" text-anchor=\"middle\">" << xml_escaped(report.shapes[s]->name) << "</text>\n";
  }
  svg << "<line x1=\"" << kLeft << "\" x2=\"" << width - 20 << "\" y1=\"" << y_of(0) << "\" y2=\"" << y_of(0)
      << "\" stroke=\"black\"/>\n";
  if (copy_line) {
    const double y = y_of(*report.device.copy_gbps);
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << width - 20 << "\" y1=\"" << y << "\" y2=\"" << y
        << "\" stroke=\"#c00\" stroke-dasharray=\"6 4\"/><text x=\"" << width - 22 << "\" y=\"" << y - 4
        << "\" text-anchor=\"end\" fill=\"#c00\">copy " << fixed(*report.device.copy_gbps, 0)
        << " GB/s</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace puzzle::cli
