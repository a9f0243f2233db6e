// Text for XML (the JUnit report, the bench chart's SVG).
#pragma once
#include <string>

namespace puzzle::cli {

// Text as XML character data or attribute value: markup escaped, and the characters XML 1.0 cannot hold
// at all (control characters such as a compiler's colour codes, invalid UTF-8) replaced by U+FFFD.
std::string xml_escaped(const std::string& text);

}  // namespace puzzle::cli
