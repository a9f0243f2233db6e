#!/usr/bin/env bash
# docs/grading.md's CI example fails on a broken grade: the grade line exits non-zero when an option names a
# folder that does not exist (the step stops there), and its jq test fails a report with no points to earn
# as well as a low score.
#   ci_example_test.sh PUZZLE_TOOL SOURCE_DIR WORK_DIR       (the jq part is skipped without jq)
set -euo pipefail
tool="$1" root="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
guide="$root/docs/grading.md"
grep -q '^          ./puzzle grade --backend sim' "$guide" || { echo "no grade line in the CI example"; exit 1; }

# The example's grade line, with a student's folder that does not exist.
code=0
"$tool" grade --backend sim --submission "$work/alcie" --json "$work/grade.json" 2>"$work/err" || code=$?
((code == 2)) || { echo "a grade of a missing folder exited $code, not 2"; exit 1; }
[[ $(wc -l <"$work/err") -eq 1 ]] || { echo "not one line:"; cat "$work/err"; exit 1; }

command -v jq >/dev/null || { echo "ok: the grade fails (jq not installed: its test skipped)"; exit 0; }
test="$(grep -o "jq -e '[^']*'" "$guide" | head -1 | sed "s/^jq -e '//; s/'$//")"
[[ -n $test ]] || { echo "no jq test in the CI example"; exit 1; }
passes() { jq -e "$test" <<<"$1" >/dev/null; }
passes '{"score": 9, "max_score": 10}' || { echo "jq fails a grade of 9/10"; exit 1; }
! passes '{"score": 0, "max_score": 0}' || { echo "jq passes a grade of 0/0"; exit 1; }
! passes '{"score": 7, "max_score": 10}' || { echo "jq passes a grade of 7/10"; exit 1; }
! passes "$(cat "$work/grade.json")" || { echo "jq passes the report of the broken grade"; exit 1; }
echo "ok: the grade and jq both fail a broken grade"
