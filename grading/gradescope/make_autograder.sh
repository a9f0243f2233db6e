#!/usr/bin/env bash
# Packs the autograder for Gradescope ("Zipped autograder"): the repository's files, with setup.sh and
# run_autograder at the top of the zip where Gradescope looks for them.
#   grading/gradescope/make_autograder.sh [OUT.zip] [--secret-seed-file FILE]
# OUT.zip defaults to build/autograder.zip (git-ignored). With a secret seed file, students are graded on
# inputs nobody can know in advance (docs/grading.md).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"  # physical, as realpath gives $out
out="$root/build/autograder.zip"
secret=""
while (($#)); do
  case "$1" in
    --secret-seed-file) secret="$(realpath "$2")"; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) out="$(realpath -m "$1")"; shift ;;
  esac
done

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# Tracked and new files, not what .gitignore leaves out (build/, .puzzle/): what a fresh clone would have.
# Never an untracked zip (an earlier run's) nor the output itself, whatever its name: each run would pack
# the last one's.
(cd "$root" && git ls-files -z --cached --others --exclude-standard --exclude='*.zip' |
  grep -zvxF -- "$(realpath -m --relative-to="$root" "$out")" | xargs -0 cp --parents -t "$stage")
cp "$root/grading/gradescope/setup.sh" "$root/grading/gradescope/run_autograder" "$stage/"
chmod +x "$stage/setup.sh" "$stage/run_autograder"
[[ -n "$secret" ]] && cp "$secret" "$stage/grading/secret_seed"
rm -f "$out"
mkdir -p "$(dirname "$out")"
(cd "$stage" && python3 -m zipfile -c "$out" $(ls -A))
echo "wrote $out$([[ -n "$secret" ]] && echo " (with a secret seed)")"
