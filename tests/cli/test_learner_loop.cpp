#include <doctest/doctest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "commands/commands.hpp"
#include "learner/file_watch.hpp"
#include "learner/learner_progress.hpp"
#include "learner/stub_reset.hpp"
#include "model/build_config.hpp"
#include "report_fixture.hpp"
#include "support/errors.hpp"
#include "support/file_io.hpp"
#include "support/subprocess.hpp"
#include "support/temp_dir.hpp"

using namespace puzzle::cli;

namespace {

// A config whose repository (progress.json, puzzles/) is a fresh temporary folder.
struct LearnerFixture {
  TempDir dir{"cli-learner-"};
  BuildConfig config = [this] {
    BuildConfig c = build_config();
    c.source_dir = dir.path();
    return c;
  }();

  void record(int id, puzzle::cli::PuzzleStatus status, std::optional<double> gbps = std::nullopt) {
    ProgressStore store(progress_file(dir.path()));
    PuzzleReport p = testing::fixture_report().puzzles.front();
    p.spec = puzzle::find_puzzle(id);
    p.status = status;
    p.cases[0].result.gbps = gbps;
    store.record_check(p, "2025-03-04T05:06:07Z");
    store.save();
  }
};

bool git_available() {
  try {
    return run_captured({"git", "--version"}).status.ok();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

TEST_CASE("standing, next puzzle and progress bar follow the registry and progress.json") {
  LearnerFixture f;
  const auto& puzzles = puzzle::all_puzzles();
  {
    const ProgressStore store(progress_file(f.dir.path()));
    CHECK(standing(store.get(1)) == "not tried");
    CHECK(next_puzzle(store) == &puzzles[0]);
    CHECK(passed_puzzles(store) == 0);
  }
  f.record(1, PuzzleStatus::passed);
  f.record(2, PuzzleStatus::crashed);
  const ProgressStore store(progress_file(f.dir.path()));
  CHECK(standing(store.get(1)) == "passed");
  CHECK(standing(store.get(2)) == "failed");
  CHECK(next_puzzle(store) == puzzle::find_puzzle(2));  // the failed one before the untried ones
  // The warm-up, never tried before puzzle 1 passed, was skipped on purpose: not sent back there.
  CHECK(standing(store.get(0)) == "not tried");
  CHECK(passed_puzzles(store) == 1);
  CHECK(progress_bar(1, 4, 8) == "[##------] 1/4 passed");
  CHECK(progress_bar(0, 6, 6) == "[------] 0/6 passed");
  CHECK(progress_bar(6, 6, 6) == "[######] 6/6 passed");
}

TEST_CASE("next: a puzzle tried and not passed is next even before a passed one; one skipped is not") {
  LearnerFixture f;
  f.record(1, PuzzleStatus::passed);
  f.record(3, PuzzleStatus::passed);
  CHECK(next_puzzle(ProgressStore(progress_file(f.dir.path()))) == puzzle::find_puzzle(4));  // 0, 2 skipped
  f.record(0, PuzzleStatus::failed);
  CHECK(next_puzzle(ProgressStore(progress_file(f.dir.path()))) == puzzle::find_puzzle(0));
}

TEST_CASE("list: passed, failed or not tried, the best speed, a progress bar and what is next") {
  LearnerFixture f;
  f.record(1, PuzzleStatus::passed, 812.5);
  f.record(2, PuzzleStatus::failed);
  std::ostringstream out;
  CHECK(list_command(f.config, Style(false), out) == 0);
  const std::string text = out.str();
  CAPTURE(text);
  CHECK(text.find("passed     2025-03-04                812.5 GB/s") != std::string::npos);
  CHECK(text.find("failed     2025-03-04                -") != std::string::npos);
  CHECK(text.find("not tried") != std::string::npos);
  CHECK(text.find(progress_bar(1, static_cast<int>(puzzle::all_puzzles().size()), kProgressBarWidth)) !=
        std::string::npos);
  CHECK(text.find("Next: `puzzle check 2`") != std::string::npos);
  // Its case counts are the ones `check` counts: on the simulator, and those that need a GPU apart.
  const puzzle::PuzzleSpec& row = *puzzle::find_puzzle(1);
  const auto sim = std::count_if(row.cases.begin(), row.cases.end(), [](const auto& t) { return t.sim; });
  const size_t at = text.find(row.file);
  REQUIRE(at != std::string::npos);
  const std::string line = text.substr(at, text.find('\n', at) - at);
  CHECK(line.find(" " + std::to_string(sim) + " + " + std::to_string(row.cases.size() - sim) + " GPU ") !=
        std::string::npos);
}

TEST_CASE("a pass is kept: a failing check after it shows as the last check, not as the standing") {
  LearnerFixture f;
  f.record(1, PuzzleStatus::passed, 812.5);
  f.record(1, PuzzleStatus::failed);  // an experiment under `watch` that broke the kernel
  const ProgressStore store(progress_file(f.dir.path()));
  CHECK(standing(store.get(1)) == "passed");
  CHECK(store.get(1).status == "failed");
  CHECK(passed_puzzles(store) == 1);
  CHECK(next_puzzle(store) == puzzle::find_puzzle(2));
  std::ostringstream out;
  CHECK(list_command(f.config, Style(false), out) == 0);
  CAPTURE(out.str());
  CHECK(out.str().find("passed     2025-03-04 failed         812.5 GB/s") != std::string::npos);
}

TEST_CASE("progress files written before passed_date: a last check that passed counts as passed") {
  LearnerFixture f;
  const auto file = progress_file(f.dir.path());
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << R"({"puzzles": {"1": {"status": "passed", "date": "2025-01-01T00:00:00Z"}}})";
  CHECK(standing(ProgressStore(file).get(1)) == "passed");
}

TEST_CASE("next: the first puzzle not passed, its file and guide; all passed says so") {
  LearnerFixture f;
  f.record(1, PuzzleStatus::passed);
  std::ostringstream out;
  CHECK(next_command(f.config, Style(false), out) == 0);
  const puzzle::PuzzleSpec& second = *puzzle::find_puzzle(2);
  CHECK(out.str().find("Next: puzzle 2, " + second.title) != std::string::npos);
  CHECK(out.str().find(puzzle::stub_path(second)) != std::string::npos);
  CHECK(out.str().find(second.docs) != std::string::npos);

  for (const auto& p : puzzle::all_puzzles()) f.record(p.id, PuzzleStatus::passed);
  std::ostringstream done;
  CHECK(next_command(f.config, Style(false), done) == 0);
  CHECK(done.str().find("All " + std::to_string(puzzle::all_puzzles().size()) + " puzzles passed") !=
        std::string::npos);
}

TEST_CASE("a file watcher reports each save once, after the file settles, and not a deletion") {
  TempDir dir("cli-watch-");
  const auto file = dir.path() / "k.cu";
  write_atomically(file, "one");
  FileWatcher watcher(file);
  CHECK_FALSE(watcher.saved());
  write_atomically(file, "two, longer");
  CHECK_FALSE(watcher.saved());  // seen changing: wait one poll for it to settle
  CHECK(watcher.saved());
  CHECK_FALSE(watcher.saved());  // once per save
  std::filesystem::remove(file);
  CHECK_FALSE(watcher.saved());
  CHECK_FALSE(watcher.saved());  // gone: nothing to check
  write_atomically(file, "three");
  CHECK_FALSE(watcher.saved());
  CHECK(watcher.saved());  // back after an editor's delete-and-write
}

TEST_CASE("watch_file calls back after each save until told to stop") {
  TempDir dir("cli-watch-");
  const auto file = dir.path() / "k.cu";
  write_atomically(file, "start");
  std::atomic<int> saves = 0;
  std::thread editor([&] {
    for (int i = 1; i <= 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      write_atomically(file, "edit " + std::string(i, '!'));
      for (int wait = 0; wait < 200 && saves < i; ++wait)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  watch_file(
      file, [&] { ++saves; }, [&] { return saves < 2 && std::chrono::steady_clock::now() < deadline; },
      std::chrono::milliseconds(10));
  editor.join();
  CHECK(saves == 2);
}

TEST_CASE("reset: the committed stub comes back, the learner's file is kept in .puzzle/backups") {
  if (!git_available()) {
    WARN_MESSAGE(false, "git is not installed: reset's test needs it");
    return;
  }
  LearnerFixture f;
  const puzzle::PuzzleSpec& spec = *puzzle::find_puzzle(1);
  const auto file = f.dir.path() / puzzle::stub_path(spec);
  write_atomically(file, "// the stub\n");
  const auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(),
                {"git", "-C", f.dir.path().string(), "-c", "user.name=t", "-c", "user.email=t@t"});
    REQUIRE(run_captured(args).status.ok());
  };
  git({"init", "-q"});
  git({"add", "puzzles"});
  git({"commit", "-q", "-m", "stubs"});

  CHECK_FALSE(reset_puzzle_file(f.dir.path(), spec, "20250101-000000").changed);  // nothing to do
  write_atomically(file, "// my attempt\n");
  const ResetResult result = reset_puzzle_file(f.dir.path(), spec, "20250101-000001");
  CHECK(result.changed);
  CHECK(read_text(file) == "// the stub\n");
  CHECK(result.backup == f.dir.path() / ".puzzle" / "backups" / (spec.file + ".20250101-000001"));
  CHECK(read_text(result.backup) == "// my attempt\n");

  std::ostringstream out;
  write_atomically(file, "// attempt two\n");
  CHECK(reset_command({.puzzle = "1"}, f.config, out) == 0);
  CHECK(out.str().find("is the stub again") != std::string::npos);
  CHECK(out.str().find(".puzzle/backups/" + spec.file) != std::string::npos);

  // The learner's work committed since: the stub still comes from the commit that added the file.
  write_atomically(file, "// my committed work\n");
  git({"commit", "-q", "-am", "my work"});
  CHECK(reset_puzzle_file(f.dir.path(), spec, "20250101-000002").changed);
  CHECK(read_text(file) == "// the stub\n");

  // --undo: the newest backup comes back; the stub it replaces needs no backup, an edit does.
  std::filesystem::remove_all(f.dir.path() / ".puzzle" / "backups");
  write_atomically(file, "// v1\n");
  reset_puzzle_file(f.dir.path(), spec, "20250102-000001");
  std::ostringstream undone;
  CHECK(reset_command({.puzzle = "1", .undo = true}, f.config, undone) == 0);
  CHECK(read_text(file) == "// v1\n");
  CHECK(undone.str().find("is your version again") != std::string::npos);
  CHECK(undone.str().find("saved as") == std::string::npos);  // it replaced the stub
  write_atomically(file, "// v2\n");
  reset_puzzle_file(f.dir.path(), spec, "20250102-000003");
  write_atomically(file, "// edited after the reset\n");
  const UndoResult kept = undo_reset(f.dir.path(), spec, "20250102-000004");
  CHECK(read_text(file) == "// v2\n");
  CHECK(read_text(kept.kept) == "// edited after the reset\n");
  CHECK(undo_reset(f.dir.path(), spec, "20250102-000005").restored == kept.kept);
  CHECK(read_text(file) == "// edited after the reset\n");
  std::filesystem::remove_all(f.dir.path() / ".puzzle" / "backups");
  CHECK_THROWS_WITH_AS(undo_reset(f.dir.path(), spec, "20250102-000006"), doctest::Contains("no backup"),
                       UsageError);
}

TEST_CASE("reset outside a git checkout says where the stub would come from") {
  LearnerFixture f;
  CHECK_THROWS_WITH_AS(reset_puzzle_file(f.dir.path(), *puzzle::find_puzzle(1), "x"),
                       doctest::Contains("git"), EnvironmentError);
}

TEST_CASE("watch goes on to the next puzzle after a pass, and stays on a puzzle that fails") {
  LearnerFixture f;
  const puzzle::PuzzleSpec& warmup = *puzzle::find_puzzle(0);
  const auto stub = f.dir.path() / puzzle::stub_path(warmup);
  Command command{.kind = CommandKind::watch, .text = "puzzle watch 0"};
  command.check = {.puzzle = "0", .backend = BackendRequest::sim, .cases = {"1", "257"}};

  write_atomically(stub, "// not started\n");  // fails: watch stays on it, until told to stop
  std::ostringstream failing, err;
  int polls = 0;
  CHECK(watch_command(command, f.config, Style(false), failing, err, [&] { return ++polls < 2; }) == 0);
  CHECK(failing.str().find("watching " + puzzle::stub_path(warmup)) != std::string::npos);
  CHECK(failing.str().find("Next:") == std::string::npos);

  write_atomically(stub, *read_text(solution_ladder(warmup, build_config().source_dir).front()));
  std::ostringstream passing;
  CHECK(watch_command(command, f.config, Style(false), passing, err,
                      [&] { return passing.str().find("Next: puzzle 1") == std::string::npos; }) == 0);
  INFO(passing.str());
  CHECK(passing.str().find("PASSED") != std::string::npos);
  CHECK(passing.str().find("Next: puzzle 1, Row softmax") != std::string::npos);
  CHECK(passing.str().find("watching " + puzzle::stub_path(*puzzle::find_puzzle(1))) != std::string::npos);
}
