#!/usr/bin/env bash
# Packs the autograder for Gradescope ("Zipped autograder"): the repository as its last commit has it
# (`git archive HEAD`: nothing uncommitted, no untracked file such as a student's, no build output), with
# setup.sh and run_autograder at the top of the zip where Gradescope looks for them.
#   grading/gradescope/make_autograder.sh [OUT.zip] [--secret-seed-file FILE] [--course FILE]
# OUT.zip defaults to build/autograder.zip (git-ignored). With a secret seed file, students are graded on
# inputs nobody can know in advance; with a course file, on the course's puzzles and points (docs/grading.md).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="$root/build/autograder.zip"
secret="" course=""
fail() { echo "make_autograder.sh: $*" >&2; exit 2; }
# A file given on the command line: it must exist and hold more than white space.
given_file() {
  [[ -f "$2" ]] || fail "the $1 file $2 does not exist"
  grep -q '[^[:space:]]' "$2" || fail "the $1 file $2 is empty; put the $1 in it, or leave the option out"
  realpath "$2"
}
while (($#)); do
  case "$1" in
    --secret-seed-file) (($# >= 2)) || fail "--secret-seed-file needs a file"; secret="$(given_file "secret seed" "$2")"; shift 2 ;;
    --course) (($# >= 2)) || fail "--course needs a file"; course="$(given_file course "$2")"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    -*) fail "unknown option $1 (see --help)" ;;
    *) out="$(realpath -m "$1")"; shift ;;
  esac
done
head="$(git -C "$root" rev-parse --short HEAD 2>/dev/null)" || fail "$root is not a git checkout with a commit"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# The committed tree of this folder (the repository's root, or the folder it sits in within a larger one).
prefix="$(git -C "$root" rev-parse --show-prefix)"
git -C "$root" archive --format=tar "HEAD:$prefix" | tar -x -C "$stage"
cp "$stage/grading/gradescope/setup.sh" "$stage/grading/gradescope/run_autograder" "$stage/"
chmod +x "$stage/setup.sh" "$stage/run_autograder"
[[ -z "$secret" ]] || cp "$secret" "$stage/grading/secret_seed"
[[ -z "$course" ]] || cp "$course" "$stage/grading/course.txt"
rm -f "$out"
mkdir -p "$(dirname "$out")"
(cd "$stage" && python3 -m zipfile -c "$out" $(ls -A))

# What the zip leaves out, said so that an edit the instructor forgot to commit is not lost unseen.
not_the_zip=()
relative_out="$(realpath -m --relative-to="$root" "$out")"
[[ $relative_out == ../* ]] || not_the_zip=(":!$relative_out")
left_out="$(git -C "$root" status --porcelain --untracked-files=normal -- . "${not_the_zip[@]}" | wc -l)"
extras=""
[[ -n "$secret" ]] && extras+=", a secret seed"
[[ -n "$course" ]] && extras+=", the course file"
echo "wrote $out: commit $head$extras"
((left_out == 0)) || echo "left out: $left_out uncommitted or untracked paths (git status lists them); commit what the zip needs"
