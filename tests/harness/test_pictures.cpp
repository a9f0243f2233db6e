// Every picture under docs/images reads at a page's width: no text runs past its canvas (a browser clips
// it), and no two texts side by side overlap (legend labels, tick labels). svg_layout.hpp says how the
// text is measured without a renderer.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "svg_layout.hpp"

namespace {

const std::filesystem::path kImages = std::filesystem::path(PUZZLE_SOURCE_DIR) / "docs" / "images";

std::string read_svg(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE(
    "the layout estimate: a monospace title past a 750 px canvas, and two labels on top of each other") {
  const auto picture = svg_layout::read_picture(
      "<svg width=\"750\" height=\"100\" font-family=\"sans-serif\" font-size=\"11\">"
      "<text x=\"20\" y=\"24\" font-size=\"13\" font-family=\"monospace\">" +
      std::string(97, 'P') +
      "</text><text x=\"70\" y=\"51\">cuBLAS bf16 standard attention</text><text x=\"220\" y=\"51\">SDPA "
      "flash</text><text transform=\"translate(16,50) rotate(-90)\" "
      "text-anchor=\"middle\">GB/s</text></svg>");
  REQUIRE(picture.texts.size() == 4);
  CHECK(picture.texts[0].right == doctest::Approx(20 + 97 * 13 * 0.6));  // 777: past 750
  CHECK(svg_layout::clipped(picture).size() == 1);
  CHECK(svg_layout::overlapping(picture).size() == 1);
  CHECK(picture.texts[3].turned);
  CHECK(picture.texts[3].bottom - picture.texts[3].top > picture.texts[3].right - picture.texts[3].left);
}

TEST_CASE("every picture's text lies inside its canvas, and no two texts overlap") {
  int pictures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kImages)) {
    if (entry.path().extension() != ".svg") continue;
    ++pictures;
    const std::string name = entry.path().filename().string();
    const svg_layout::Picture picture = svg_layout::read_picture(read_svg(entry.path()));
    CAPTURE(name);
    CHECK(picture.width > 0);
    for (const std::string& problem : svg_layout::clipped(picture)) FAIL_CHECK(name << ": " << problem);
    for (const std::string& pair : svg_layout::overlapping(picture)) FAIL_CHECK(name << ": overlap " << pair);
  }
  CHECK(pictures > 20);
}
