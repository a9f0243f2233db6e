// Where the text of an SVG picture lies, estimated without rendering it, so that a test can say "this
// title runs past the right edge" or "these two legend labels overlap". The pictures' texts are placed
// with x, y, text-anchor, font-size and font-family on <text>, its <g> or the <svg>, and at most a
// transform of translate() and rotate(). Widths: monospace is 0.6 em a character (DejaVu Sans Mono, Menlo
// and Consolas all are). Other fonts vary by renderer; each character gets its width in DejaVu Sans (Book
// or Bold), the font a Linux browser draws "sans-serif" and "Helvetica" in, and the widest of the common
// ones (Helvetica and Arial are narrower). A character past ASCII gets 1 em, the middle dot a space's.
#pragma once
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <numbers>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace svg_layout {

struct TextBox {
  std::string text;
  double left = 0, right = 0, top = 0, bottom = 0;
  bool turned = false;  // rotated: only its bounding box in the canvas is checked
};

struct Picture {
  double x0 = 0, y0 = 0, width = 0, height = 0;  // the canvas, from the viewBox or width and height
  std::vector<TextBox> texts;
};

using Attributes = std::map<std::string, std::string>;

inline Attributes attributes_of(const std::string& tag) {
  static const std::regex attribute(R"re(([\w:-]+)="([^"]*)")re");
  Attributes found;
  for (std::sregex_iterator m(tag.begin(), tag.end(), attribute), end; m != end; ++m)
    found[(*m)[1]] = (*m)[2];
  return found;
}

inline std::string unescaped(std::string text) {
  static const std::regex tag("<[^>]*>");
  text = std::regex_replace(text, tag, "");  // a <tspan> keeps its text
  static const std::array<std::pair<const char*, const char*>, 5> entities = {
      {{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}}};
  for (const auto& [entity, character] : entities) {
    for (size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1))
      text.replace(at, std::string(entity).size(), character);
  }
  return text;
}

// DejaVu Sans's advance widths of the characters 32 to 126, in thousandths of an em.
constexpr std::array<short, 95> kSansBook = {
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361,  318, 337, 636, 636, 636,
    636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632,
    575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635,  611, 732, 684, 989, 685,
    611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352,  635, 634, 278, 278, 579,
    278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592,  525, 636, 337, 636, 838};
constexpr std::array<short, 95> kSansBold = {
    348, 456,  521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415,  380, 365, 696, 696,  696,
    696, 696,  696, 696, 696, 696,  696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830,  683,
    683, 821,  837, 372, 372, 775,  637, 995, 837, 850, 733, 850, 770, 720,  682, 812, 774, 1103, 771,
    724, 725,  457, 365, 457, 838,  500, 500, 675, 716, 593, 716, 678, 435,  716, 712, 343, 343,  665,
    343, 1042, 712, 687, 716, 716,  493, 595, 478, 712, 652, 924, 645, 652,  582, 712, 365, 712,  838};

inline double estimated_width(const std::string& text, double size, bool monospace, bool bold) {
  const std::array<short, 95>& widths = bold ? kSansBold : kSansBook;
  double em = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: the character was counted
    if (monospace) {
      em += 0.6;
    } else if (c >= 32 && c < 127) {
      em += widths[c - 32] / 1000.0;
    } else {
      em += text.compare(i, 2, "\u00b7") == 0 ? widths[0] / 1000.0 : 1.0;
    }
  }
  return em * size;
}

// The corners of a box after `transform` (translate and rotate, applied right to left as SVG does).
inline std::vector<std::array<double, 2>> transformed(const std::string& transform,
                                                      std::vector<std::array<double, 2>> points) {
  static const std::regex step(R"((translate|rotate)\(([^)]*)\))");
  std::vector<std::pair<std::string, std::vector<double>>> steps;
  for (std::sregex_iterator m(transform.begin(), transform.end(), step), end; m != end; ++m) {
    std::string arguments = (*m)[2];
    std::replace(arguments.begin(), arguments.end(), ',', ' ');
    std::istringstream in(arguments);
    std::vector<double> values;
    for (double v; in >> v;) values.push_back(v);
    steps.emplace_back((*m)[1], values);
  }
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    const std::vector<double>& v = it->second;
    for (auto& [x, y] : points) {
      if (it->first == "translate") {
        x += v.at(0), y += v.size() > 1 ? v[1] : 0;
      } else {
        const double angle = v.at(0) * std::numbers::pi / 180, cx = v.size() == 3 ? v[1] : 0,
                     cy = v.size() == 3 ? v[2] : 0;
        const double dx = x - cx, dy = y - cy;
        x = cx + dx * std::cos(angle) - dy * std::sin(angle);
        y = cy + dx * std::sin(angle) + dy * std::cos(angle);
      }
    }
  }
  return points;
}

inline double number(const Attributes& a, const std::string& name, double fallback) {
  const auto it = a.find(name);
  return it == a.end() ? fallback : std::stod(it->second);  // "12 34" (a list of x): the first
}

inline Picture read_picture(const std::string& svg) {
  Picture picture;
  std::vector<Attributes> inherited{{}};  // <svg>, then each open <g>: what a <text> inherits
  static const std::regex element(R"(<(/?)(svg|g|text)\b([^>]*)>)");
  for (std::sregex_iterator m(svg.begin(), svg.end(), element), end; m != end; ++m) {
    const bool closing = (*m)[1].length() > 0;
    const std::string name = (*m)[2];
    Attributes own = attributes_of((*m)[3]);
    if (name == "g" || name == "svg") {
      if (closing) {
        if (inherited.size() > 1) inherited.pop_back();
        continue;
      }
      if (name == "svg") {
        picture.width = number(own, "width", 0), picture.height = number(own, "height", 0);
        if (own.contains("viewBox")) {
          std::istringstream box(own["viewBox"]);
          box >> picture.x0 >> picture.y0 >> picture.width >> picture.height;
        }
      }
      own.erase("transform");  // a <g>'s own transform is not inherited as text: none of ours has one
      Attributes merged = inherited.back();
      for (const auto& [key, value] : own) merged[key] = value;
      inherited.push_back(merged);
      continue;
    }
    if (closing) continue;
    Attributes a = inherited.back();
    for (const auto& [key, value] : own) a[key] = value;
    const size_t from = m->position() + m->length(), to = svg.find("</text>", from);
    const std::string text = unescaped(svg.substr(from, to - from));
    const double size = number(a, "font-size", 16);
    const bool monospace = a["font-family"].find("mono") != std::string::npos;
    const double width = estimated_width(text, size, monospace, a["font-weight"] == "bold");
    const double x = number(a, "x", 0), y = number(a, "y", 0);
    const std::string anchor = a.contains("text-anchor") ? a["text-anchor"] : "start";
    const double left = x - (anchor == "end" ? width : anchor == "middle" ? width / 2 : 0);
    // Capitals reach 0.75 em above the baseline, descenders 0.2 em below it.
    const auto corners = transformed(a["transform"], {{left, y - 0.75 * size},
                                                      {left + width, y - 0.75 * size},
                                                      {left, y + 0.2 * size},
                                                      {left + width, y + 0.2 * size}});
    TextBox box{.text = text,
                .left = 1e300,
                .right = -1e300,
                .top = 1e300,
                .bottom = -1e300,
                .turned = a["transform"].find("rotate") != std::string::npos};
    for (const auto& [cx, cy] : corners) {
      box.left = std::min(box.left, cx), box.right = std::max(box.right, cx);
      box.top = std::min(box.top, cy), box.bottom = std::max(box.bottom, cy);
    }
    picture.texts.push_back(box);
  }
  return picture;
}

inline std::string rounded(double v) {
  return std::to_string(static_cast<long>(std::lround(v)));
}

// Each text that reaches past the canvas, in words.
inline std::vector<std::string> clipped(const Picture& p) {
  std::vector<std::string> found;
  for (const TextBox& t : p.texts) {
    if (t.left >= p.x0 - 0.5 && t.right <= p.x0 + p.width + 0.5 && t.top >= p.y0 - 0.5 &&
        t.bottom <= p.y0 + p.height + 0.5)
      continue;
    found.push_back("\"" + t.text + "\" spans x " + rounded(t.left) + ".." + rounded(t.right) + ", y " +
                    rounded(t.top) + ".." + rounded(t.bottom) + " of a " + rounded(p.width) + " x " +
                    rounded(p.height) + " canvas");
  }
  return found;
}

// Each pair of level texts that overlap or come closer than a quarter of their height side by side.
inline std::vector<std::string> overlapping(const Picture& p) {
  std::vector<std::string> found;
  for (size_t i = 0; i < p.texts.size(); ++i) {
    for (size_t j = i + 1; j < p.texts.size(); ++j) {
      const TextBox &a = p.texts[i], &b = p.texts[j];
      if (a.turned || b.turned || a.text.empty() || b.text.empty()) continue;
      const double gap = 0.25 * std::min(a.bottom - a.top, b.bottom - b.top) / 0.95;
      if (a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom && b.top < a.bottom)
        found.push_back("\"" + a.text + "\" and \"" + b.text + "\"");
    }
  }
  return found;
}

}  // namespace svg_layout
