#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "report/bench_files.hpp"
#include "report/text_format.hpp"
#include "report/xml_text.hpp"

namespace puzzle::cli {
namespace {

// Laid out to be read at a page's width: a legend that wraps, bars that narrow as kernels are added,
// shape labels that set their group's width, and many shapes split into small multiples (one panel per
// head dim and mask, say) that share the value axis.
constexpr double kLeft = 70, kRight = 20, kMinWidth = 480;
constexpr double kLegendRow = 16, kFontSize = 11, kValueFontSize = 9;
constexpr double kPlotHeight = 260, kPanelPlotHeight = 170;  // one panel, or each of several
constexpr double kPanelTitle = 20, kShapeLabels = 30;
constexpr size_t kShapesPerPanel = 8;
// Ours first, then PyTorch's columns (up to 4 SDPA backends) in colours of their own.
constexpr const char* kColors[] = {"#4c72b0", "#55a868", "#c44e52", "#8172b2",
                                   "#ccb974", "#64b5cd", "#8c8c8c", "#dd8452"};
constexpr size_t kColorCount = std::size(kColors);

// A round top for the axis, at least `value`: a power of ten times 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8, so that
// the tallest bar fills most of its panel and the five ticks stay round.
double nice_ceiling(double value) {
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0}) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

// A generous width of `text` in a sans-serif font of `size` px (the chart names no exact font, and
// DejaVu Sans is about the widest a reader may get): 0.42 em for narrow characters, 1 em for m, w, M, W,
// % and @, 0.79 em for other capitals, 0.64 em for the rest.
double estimated_text_width(const std::string& text, double size) {
  static const std::string narrow = "iljtfr.,:;!|'()[]-/ I", wide = "mwMW%@";
  double em = 0;
  for (const char c : text) {
    em += narrow.find(c) != std::string::npos           ? 0.42
          : wide.find(c) != std::string::npos           ? 1.0
          : std::isupper(static_cast<unsigned char>(c)) ? 0.79
                                                        : 0.64;
  }
  return em * size;
}

std::string bar_value_text(double rate) {
  return fixed(rate, rate < 100 ? 1 : 0);
}

// Shapes split into panels of at most kShapesPerPanel: keyed by the parameters with the fewest distinct
// values (head dim, causal), added one at a time until every panel is small enough.
struct ChartPanel {
  std::string title;                // "d = 64, causal"; empty for a chart of one panel
  std::vector<size_t> shapes;       // indices into BenchReport::shapes, in order
  std::vector<std::string> labels;  // each shape's name without the tokens every shape of the panel has
};

std::string panel_title(const std::vector<std::string>& keys, const Params& params) {
  std::string title;
  for (const std::string& key : keys) {
    const int64_t value = params.at(key);
    title += (title.empty() ? "" : ", ");
    title += value == 0 || value == 1 ? (value ? "" : "not ") + key : key + " = " + std::to_string(value);
  }
  return title;
}

std::vector<std::string> name_tokens(const std::string& name) {
  std::vector<std::string> tokens;
  std::istringstream in(name);
  for (std::string token; std::getline(in, token, '_');) tokens.push_back(token);
  return tokens;
}

void label_shapes(const BenchReport& report, ChartPanel& panel) {
  std::map<std::string, size_t> seen;
  for (const size_t s : panel.shapes) {
    const std::vector<std::string> tokens = name_tokens(report.shapes[s]->name);
    for (const std::string& token : std::set<std::string>(tokens.begin(), tokens.end())) ++seen[token];
  }
  for (const size_t s : panel.shapes) {
    std::string label;
    for (const std::string& token : name_tokens(report.shapes[s]->name)) {
      if (panel.shapes.size() > 1 && seen[token] == panel.shapes.size()) continue;
      label += (label.empty() ? "" : "_") + token;
    }
    panel.labels.push_back(label.empty() ? report.shapes[s]->name : label);
  }
}

std::vector<ChartPanel> panels_of(const BenchReport& report) {
  const size_t shapes = report.shapes.size();
  std::vector<std::string> keys;
  std::vector<ChartPanel> panels{ChartPanel{}};
  for (size_t s = 0; s < shapes; ++s) panels[0].shapes.push_back(s);
  if (shapes > kShapesPerPanel) {
    std::vector<std::pair<size_t, std::string>> by_values;  // (distinct values, parameter)
    for (const auto& [name, value] : report.shapes[0]->params) {
      std::set<int64_t> values;
      bool everywhere = true;
      for (const TestCase* shape : report.shapes) {
        const auto it = shape->params.find(name);
        everywhere = everywhere && it != shape->params.end();
        if (it != shape->params.end()) values.insert(it->second);
      }
      if (everywhere && values.size() > 1) by_values.emplace_back(values.size(), name);
    }
    std::sort(by_values.begin(), by_values.end());
    for (const auto& [count, name] : by_values) {
      keys.push_back(name);
      std::vector<ChartPanel> split;
      std::map<std::vector<int64_t>, size_t> panel_of_key;
      for (size_t s = 0; s < shapes; ++s) {
        std::vector<int64_t> key;
        for (const std::string& k : keys) key.push_back(report.shapes[s]->params.at(k));
        const auto [it, added] = panel_of_key.emplace(key, split.size());
        if (added) split.push_back({.title = panel_title(keys, report.shapes[s]->params)});
        split[it->second].shapes.push_back(s);
      }
      panels = std::move(split);
      if (std::all_of(panels.begin(), panels.end(),
                      [](const ChartPanel& p) { return p.shapes.size() <= kShapesPerPanel; }))
        break;
    }
  }
  for (ChartPanel& panel : panels) label_shapes(report, panel);
  return panels;
}

}  // namespace

std::string bench_chart_svg(const BenchReport& report) {
  const std::vector<BenchSeries> series = bench_series(report);
  const size_t kernels = series.size();
  const std::vector<ChartPanel> panels = panels_of(report);
  const bool several = panels.size() > 1;
  const double plot_height = several ? kPanelPlotHeight : kPlotHeight;
  const double bar = std::clamp(120.0 / static_cast<double>(std::max<size_t>(kernels, 1)), 10.0, 26.0);
  const double gap = kernels > 3 ? 20 : 34;
  // Values above bars too narrow for them are turned upright.
  double highest = 0, widest_value = 0;
  for (const BenchSeries& k : series) {
    for (const BenchTiming& t : k.timings) {
      if (!t.rate) continue;
      highest = std::max(highest, *t.rate);
      widest_value = std::max(widest_value, estimated_text_width(bar_value_text(*t.rate), kValueFontSize));
    }
  }
  const bool upright_values = widest_value + 2 > bar;
  // Each shape's group is as wide as its bars, or as its label.
  double group = kernels * bar + gap;
  for (const ChartPanel& panel : panels) {
    for (const std::string& label : panel.labels)
      group = std::max(group, estimated_text_width(label, kFontSize) + 12);
  }
  size_t most_shapes = 1;
  for (const ChartPanel& panel : panels) most_shapes = std::max(most_shapes, panel.shapes.size());
  const std::string title = "puzzle bench " + std::to_string(report.spec->id) + ": " + report.spec->title;
  const std::string subtitle = report.device.name + ", " + report.created;
  const double width = std::max({kLeft + most_shapes * group + kRight, kMinWidth,
                                 kLeft + estimated_text_width(title, 14) * 1.1 + kRight,
                                 kLeft + estimated_text_width(subtitle, kFontSize) + kRight});

  // The legend: entries in a row while they fit, then the next row.
  std::ostringstream legend;
  double legend_x = kLeft, legend_y = 42;
  for (size_t k = 0; k < kernels; ++k) {
    const double entry = 14 + estimated_text_width(series[k].label, kFontSize);
    if (legend_x > kLeft && legend_x + entry > width - kRight) legend_x = kLeft, legend_y += kLegendRow;
    legend << "<rect x=\"" << legend_x << "\" y=\"" << legend_y << "\" width=\"10\" height=\"10\" fill=\""
           << kColors[k % kColorCount] << "\"/><text x=\"" << legend_x + 14 << "\" y=\"" << legend_y + 9
           << "\">" << xml_escaped(series[k].label) << "</text>\n";
    legend_x += entry + 18;
  }
  const double panels_top = legend_y + kLegendRow + 6;

  // One axis for every panel, with room above the tallest bar for its value.
  const bool copy_line = report.metric == "GB/s" && report.device.copy_gbps;
  double top = std::max(copy_line ? *report.device.copy_gbps * 1.05 : 0.0, highest * 1.05);
  const double value_room = (upright_values ? widest_value : kValueFontSize) + 6;
  top = nice_ceiling(std::max(top, highest / std::max(0.2, 1 - value_room / plot_height)));
  top = std::max(top, 1e-9);
  const double panel_height = (several ? kPanelTitle : 0) + plot_height + kShapeLabels;
  const double height = panels_top + panels.size() * panel_height;

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"" << kFontSize << "\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft << "\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" << xml_escaped(title)
      << "</text>\n"
      << "<text x=\"" << kLeft << "\" y=\"34\">" << xml_escaped(subtitle) << "</text>\n"
      << legend.str();
  for (size_t p = 0; p < panels.size(); ++p) {
    const ChartPanel& panel = panels[p];
    const double panel_top = panels_top + p * panel_height,
                 plot_top = panel_top + (several ? kPanelTitle : 0);
    const auto y_of = [&](double value) { return plot_top + plot_height * (1 - value / top); };
    if (several) {
      svg << "<text x=\"" << kLeft << "\" y=\"" << panel_top + 13 << "\" font-weight=\"bold\">"
          << xml_escaped(panel.title) << "</text>\n";
    }
    for (int tick = 0; tick <= 5; ++tick) {  // y axis with grid lines
      const double value = top * tick / 5, y = y_of(value);
      svg << "<line x1=\"" << kLeft << "\" x2=\"" << width - kRight << "\" y1=\"" << y << "\" y2=\"" << y
          << "\" stroke=\"#ddd\"/><text x=\"" << kLeft - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">"
          << fixed(value, value < 10 ? 1 : 0) << "</text>\n";
    }
    svg << "<text transform=\"translate(16," << plot_top + plot_height / 2
        << ") rotate(-90)\" text-anchor=\"middle\">" << xml_escaped(report.metric) << "</text>\n";
    for (size_t i = 0; i < panel.shapes.size(); ++i) {
      const size_t s = panel.shapes[i];
      const double x0 = kLeft + i * group + (group - kernels * bar) / 2;
      for (size_t k = 0; k < kernels; ++k) {
        const BenchTiming& t = series[k].timings[s];
        const double x = x0 + k * bar, middle = x + bar / 2;
        if (!t.rate) {  // no bar: say why in one mark, upright where a bar is narrow
          const std::string mark = t.problem == "out of memory" ? "OOM" : "n/a";
          svg << "<text transform=\"translate(" << middle + 3 << "," << y_of(0) - 4
              << ") rotate(-90)\" fill=\"" << kColors[k % kColorCount] << "\" font-size=\"" << kValueFontSize
              << "\">" << mark << "</text>\n";
          continue;
        }
        const double y = y_of(*t.rate);
        svg << "<rect x=\"" << x + 1 << "\" y=\"" << y << "\" width=\"" << bar - 2 << "\" height=\""
            << y_of(0) - y << "\" fill=\"" << kColors[k % kColorCount] << "\"><title>"
            << xml_escaped(series[k].label + ", " + report.shapes[s]->name + ": " + fixed(*t.rate, 1) + " " +
                           report.metric)
            << "</title></rect>\n";
        if (upright_values) {
          svg << "<text transform=\"translate(" << middle + 3 << "," << y - 3
              << ") rotate(-90)\" font-size=\"" << kValueFontSize << "\">" << bar_value_text(*t.rate)
              << "</text>\n";
        } else {
          svg << "<text x=\"" << middle << "\" y=\"" << y - 3 << "\" text-anchor=\"middle\" font-size=\""
              << kValueFontSize << "\">" << bar_value_text(*t.rate) << "</text>\n";
        }
      }
      svg << "<text x=\"" << kLeft + (i + 0.5) * group << "\" y=\"" << y_of(0) + 16
          << "\" text-anchor=\"middle\">" << xml_escaped(panel.labels[i]) << "</text>\n";
    }
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << width - kRight << "\" y1=\"" << y_of(0) << "\" y2=\""
        << y_of(0) << "\" stroke=\"black\"/>\n";
    if (copy_line) {
      const double y = y_of(*report.device.copy_gbps);
      svg << "<line x1=\"" << kLeft << "\" x2=\"" << width - kRight << "\" y1=\"" << y << "\" y2=\"" << y
          << "\" stroke=\"#c00\" stroke-dasharray=\"6 4\"/><text x=\"" << width - kRight - 2 << "\" y=\""
          << y - 4 << "\" text-anchor=\"end\" fill=\"#c00\">copy " << fixed(*report.device.copy_gbps, 0)
          << " GB/s</text>\n";
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace puzzle::cli
