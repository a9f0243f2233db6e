#include "pipelines/submission_files.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

#include "support/text_pattern.hpp"

namespace puzzle::cli {

namespace fs = std::filesystem;

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Whether `name` is the puzzle's file under another name: "01_Row_Softmax.cu", "01_row_softmax (1).cu",
// "01_row_softmax-2.cu", "01_row_softmax copy.cu", "row_softmax.cu" or "1-row-softmax.cu".
bool near_name_of(const std::string& name, const PuzzleSpec& puzzle) {
  static const TextPattern copy_suffix(R"(( \(\d+\)|-\d+| copy( \d+)?)$)");
  static const TextPattern number_prefix(R"(^(\d+)[_ -]?)");
  std::string stem = lowercase(name);
  if (!stem.ends_with(".cu")) return false;
  stem = copy_suffix.replace(stem.substr(0, stem.size() - 3), "");
  if (const auto number = number_prefix.search(stem)) {
    if (std::stoi((*number)[1]) != puzzle.id) return false;
    stem = stem.substr(number->end());
  }
  std::replace(stem.begin(), stem.end(), '-', '_');
  std::replace(stem.begin(), stem.end(), ' ', '_');
  return stem == puzzle.slug;
}

// Every regular file under `dir`, hidden folders and __MACOSX left out, with its depth.
void each_file(const fs::path& dir, const std::function<void(const fs::path&, size_t)>& visit) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && (name.starts_with(".") || name == "__MACOSX")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) visit(it->path(), static_cast<size_t>(it.depth()));
  }
}

std::string relative_text(const fs::path& file, const fs::path& dir) {
  return file.lexically_relative(dir).string();
}

}  // namespace

SubmittedFile find_submitted_file(const fs::path& dir, const PuzzleSpec& puzzle) {
  struct Candidate {
    bool near;
    size_t depth;
    fs::path path;
    bool operator<(const Candidate& o) const {
      return std::tie(near, depth, path) < std::tie(o.near, o.depth, o.path);
    }
  };
  std::vector<Candidate> found;
  each_file(dir, [&](const fs::path& file, size_t depth) {
    const std::string name = file.filename().string();
    if (name == puzzle.file) {
      found.push_back({false, depth, file});
    } else if (near_name_of(name, puzzle)) {
      found.push_back({true, depth, file});
    }
  });
  if (found.empty()) return {};
  std::sort(found.begin(), found.end());
  SubmittedFile result{.graded = found.front().path, .near_name = found.front().near};
  for (size_t i = 1; i < found.size(); ++i) result.others.push_back(found[i].path);
  return result;
}

std::string file_note(const SubmittedFile& file, const PuzzleSpec& puzzle, const fs::path& dir) {
  if (!file.graded) return "";
  std::string note;
  if (file.near_name) note = "graded " + relative_text(*file.graded, dir) + " as " + puzzle.file;
  if (!file.others.empty()) {
    note += (note.empty() ? "graded " + relative_text(*file.graded, dir) : std::string()) + " of " +
            std::to_string(file.others.size() + 1) + " candidates; not graded:";
    bool elsewhere = false;  // a candidate in another folder: a class in one folder, maybe
    for (const fs::path& other : file.others) {
      note += " " + relative_text(other, dir);
      elsewhere = elsewhere || other.parent_path() != file.graded->parent_path();
    }
    if (elsewhere) note += " (for a folder per student: grade --class DIR)";
  }
  return note;
}

std::vector<fs::path> unmatched_cuda_files(const fs::path& dir) {
  std::vector<fs::path> files;
  each_file(dir, [&](const fs::path& file, size_t) {
    const std::string name = file.filename().string();
    if (!lowercase(name).ends_with(".cu")) return;
    for (const PuzzleSpec& p : all_puzzles()) {
      if (name == p.file || near_name_of(name, p)) return;
    }
    files.push_back(file.lexically_relative(dir));
  });
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace puzzle::cli
