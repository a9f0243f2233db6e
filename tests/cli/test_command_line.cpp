#include <doctest/doctest.h>

#include "commands/command_line.hpp"
#include "parse_fixture.hpp"

using namespace puzzle::cli;

using puzzle::cli::testing::parse;

TEST_CASE("check with no options: automatic backend, random seed, the learner's file") {
  const auto parsed = parse({"check", "1"});
  REQUIRE(parsed.command);
  const Command& c = *parsed.command;
  CHECK(c.kind == CommandKind::check);
  CHECK(c.check.puzzle == "1");
  CHECK(c.check.backend == BackendRequest::automatic);
  CHECK_FALSE(c.check.seed);
  CHECK_FALSE(c.check.solution);
  CHECK_FALSE(c.check.file);
  CHECK_FALSE(c.check.json);
  CHECK_FALSE(c.check.timeout_s);
  CHECK(c.check.cases.empty());
  CHECK_FALSE(c.check.verbose);
  CHECK(c.check.estimate_speed);
  CHECK(c.text == "puzzle check 1");
}

TEST_CASE("the command text names the program as the learner types it") {
  const auto parsed = parse_command_line({"/home/me/flash/build/puzzle", "check", "1", "--seed", "5"});
  REQUIRE(parsed.command);
  CHECK(parsed.command->text == "puzzle check 1 --seed 5");
}

TEST_CASE("check with every option") {
  const auto parsed =
      parse({"check", "row_softmax", "--backend", "sim", "--seed", "12345678901", "--solution", "--json",
             "out.json", "--timeout", "2.5", "--case", "1x1", "--case", "127x129", "-v", "--no-estimate"});
  REQUIRE(parsed.command);
  const CheckOptions& o = parsed.command->check;
  CHECK(o.puzzle == "row_softmax");
  CHECK(o.backend == BackendRequest::sim);
  CHECK(o.seed == 12345678901ull);
  CHECK(o.solution);
  CHECK(o.json == std::filesystem::path("out.json"));
  CHECK(o.timeout_s == doctest::Approx(2.5));
  CHECK(o.cases == std::vector<std::string>{"1x1", "127x129"});
  CHECK(o.verbose);
  CHECK_FALSE(o.estimate_speed);
}

TEST_CASE("--file takes a path and --backend gpu is accepted") {
  const auto parsed = parse({"check", "1", "--file", "/tmp/mine.cu", "--backend", "gpu"});
  REQUIRE(parsed.command);
  CHECK(parsed.command->check.file == std::filesystem::path("/tmp/mine.cu"));
  CHECK(parsed.command->check.backend == BackendRequest::gpu);
}

TEST_CASE("usage errors exit with 2 and say what is wrong") {
  struct Bad {
    std::vector<std::string> args;
    std::string says;
  };
  const Bad cases[] = {
      {{"check", "1", "--bogus"}, "--bogus"},
      {{"check", "1", "--backend", "cuda"}, "cuda"},
      {{"check", "1", "--file", "x.cu", "--solution"}, "excludes"},
      {{"check", "1", "--solution", "--file", "x.cu"}, "excludes"},
      {{"check", "1", "--timeout", "0"}, "timeout"},
      {{"check", "1", "--seed", "-3"}, "seed"},
      {{"check"}, "puzzle"},
      {{"hint", "1", "--level", "4"}, "level"},
      {{"frobnicate"}, "frobnicate"},
      {{}, "subcommand"},
  };
  for (const auto& bad : cases) {
    CAPTURE(bad.says);
    const auto parsed = parse(bad.args);
    CHECK_FALSE(parsed.command);
    CHECK(parsed.exit_code == 2);
    CHECK(parsed.output.find(bad.says) != std::string::npos);
    CHECK(parsed.output.find("--help") != std::string::npos);
  }
}

TEST_CASE("--help exits with 0; each command's help has its own exit codes and no CLI11 internals") {
  const auto top = parse({"--help"});
  CHECK(top.exit_code == 0);
  CHECK(top.output.find("\n  test ") != std::string::npos);  // ./puzzle test, listed with the rest
  CHECK(top.output.find("puzzle COMMAND --help") != std::string::npos);
  const std::vector<std::pair<std::string, std::string>> own = {{"check", "1  the kernel failed"},
                                                                {"bench", "every shape timed"},
                                                                {"grade", "nothing to grade"},
                                                                {"watch", "stopped with Ctrl-C"},
                                                                {"hint", "2  usage error"},
                                                                {"reset", "no backup to undo"},
                                                                {"doctor", "the simulator can build"},
                                                                {"list", "0  done"}};
  for (const auto& [command, says] : own) {
    CAPTURE(command);
    const auto parsed = parse({command, "--help"});
    CHECK_FALSE(parsed.command);
    CHECK(parsed.exit_code == 0);
    CHECK(parsed.output.find("Exit codes:") != std::string::npos);
    CHECK(parsed.output.find(says) != std::string::npos);
    for (const char* internal :
         {"ENUM", "->", "{false}", "{true}", "Excludes", "UINT", "FLOAT", "TEXT", "INT in"})
      CHECK_MESSAGE(parsed.output.find(internal) == std::string::npos, internal);
  }
  CHECK(parse({"hint", "--help"}).output.find("the kernel failed") == std::string::npos);  // not check's
  CHECK(parse({"check", "--help"}).output.find("--backend auto|sim|gpu") != std::string::npos);
  CHECK(parse({"check", "--help"}).output.find("--timeout SECONDS") != std::string::npos);
  CHECK_FALSE(parse({"check", "1", "--no-api-check"}).command->check.api_check);
  CHECK(parse({"check", "1"}).command->check.api_check);
  CHECK_FALSE(parse({"bench", "1", "--no-torch"}).command->bench.torch);
  CHECK(parse({"test"}).command->kind == CommandKind::test);
}

TEST_CASE("list, hint and doctor") {
  CHECK(parse({"list"}).command->kind == CommandKind::list);
  CHECK(parse({"doctor"}).command->kind == CommandKind::doctor);
  const auto hint = parse({"hint", "2", "--level", "3"});
  REQUIRE(hint.command);
  CHECK(hint.command->kind == CommandKind::hint);
  CHECK(hint.command->hint.puzzle == "2");
  CHECK(hint.command->hint.level == 3);
  CHECK_FALSE(parse({"hint", "2"}).command->hint.level);
}
