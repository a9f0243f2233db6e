#!/usr/bin/env bash
# Packs the autograder for Gradescope ("Zipped autograder"): the repository's files, with setup.sh and
# run_autograder at the top of the zip where Gradescope looks for them.
#   grading/gradescope/make_autograder.sh [autograder.zip] [--secret-seed-file FILE]
# With a secret seed file, students are graded on inputs nobody can know in advance (docs/grading.md).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$PWD/autograder.zip"
secret=""
while (($#)); do
  case "$1" in
    --secret-seed-file) secret="$(realpath "$2")"; shift 2 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) out="$(realpath -m "$1")"; shift ;;
  esac
done

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# Tracked and new files, not what .gitignore leaves out (build/, .puzzle/): what a fresh clone would have.
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$stage")
cp "$root/grading/gradescope/setup.sh" "$root/grading/gradescope/run_autograder" "$stage/"
chmod +x "$stage/setup.sh" "$stage/run_autograder"
[[ -n "$secret" ]] && cp "$secret" "$stage/grading/secret_seed"
rm -f "$out"
(cd "$stage" && python3 -m zipfile -c "$out" $(ls -A))
echo "wrote $out$([[ -n "$secret" ]] && echo " (with a secret seed)")"
