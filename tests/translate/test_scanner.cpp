// The scanner: what is a token, what is skipped, and where each token is.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "scanner.hpp"

namespace {

using sim::translate::scan;
using sim::translate::Token;
using sim::translate::TokenKind;

std::vector<std::string> texts(std::string_view source) {
  std::vector<std::string> out;
  for (const Token& t : scan(source)) out.emplace_back(t.text);
  return out;
}

}  // namespace

TEST_CASE("comments are skipped, including a // comment continued by a line splice") {
  CHECK(texts("a /* b\n c */ d // e \\\n f\ng") == std::vector<std::string>{"a", "d", "g"});
}

TEST_CASE("literals are single tokens") {
  std::vector<Token> tokens = scan(R"(1'000'000 0x1p-3 1.5e+3f .5 'a' '\'' "x\"y" u8"z" L'w' "s"_sv)");
  std::vector<std::string> expected = {"1'000'000", "0x1p-3",     "1.5e+3f", ".5",   "'a'",
                                       "'\\''",     "\"x\\\"y\"", "u8\"z\"", "L'w'", "\"s\"_sv"};
  REQUIRE(tokens.size() == expected.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    CHECK(tokens[i].text == expected[i]);
    CHECK(tokens[i].kind == (i < 4 ? TokenKind::Number : TokenKind::Literal));
  }
}

TEST_CASE("raw strings end at their own delimiter and count their lines") {
  std::vector<Token> tokens = scan("R\"x(a)\" \" )x\" LR\"(\n\n)\" z");
  REQUIRE(tokens.size() == 3);
  CHECK(tokens[0].text == "R\"x(a)\" \" )x\"");
  CHECK(tokens[1].text == "LR\"(\n\n)\"");
  CHECK(tokens[2].line == 3);
}

TEST_CASE("launch brackets and longest-match punctuators") {
  CHECK(texts("k<<<a>>>(b) x<<=1; y>>=2; p->q; a::b; c<=>d;") ==
        std::vector<std::string>{
            "k", "<<<", "a",  ">>>", "(", "b", ")",  "x", "<<=", "1", ";",   "y", ">>=", "2",
            ";", "p",   "->", "q",   ";", "a", "::", "b", ";",   "c", "<=>", "d", ";"});
}

TEST_CASE("directives: a line starting with #, continued by line splices") {
  std::vector<Token> tokens = scan("#define A \\\n  B\nC # D\n  #error don't\nE");
  REQUIRE(tokens.size() == 12);
  for (size_t i : {0, 1, 2, 3}) CHECK(tokens[i].directive == 1);
  for (size_t i : {4, 5, 6}) CHECK(tokens[i].directive == 0);  // `C # D`: a # inside a line
  for (size_t i : {7, 8, 9, 10}) CHECK(tokens[i].directive == 2);
  CHECK(tokens[10].text == "'t");  // an unterminated char literal ends with its line
  CHECK(tokens[11].text == "E");
  CHECK(tokens[11].directive == 0);
}

TEST_CASE("positions: 1-based lines and byte columns, and whether space precedes") {
  std::vector<Token> tokens = scan("ab  c\n\tx/**/y\nz");
  REQUIRE(tokens.size() == 5);
  CHECK((tokens[1].line == 1 && tokens[1].column == 5 && tokens[1].after_space));
  CHECK((tokens[2].line == 2 && tokens[2].column == 2 && tokens[2].after_space));
  CHECK((tokens[3].column == 7 && tokens[3].after_space));  // a comment counts as space
  CHECK((tokens[4].line == 3 && tokens[4].offset == 14));
  CHECK_FALSE(tokens[0].after_space);
}
