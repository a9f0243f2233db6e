#!/usr/bin/env bash
# The Gradescope dry run: a class of 16 submissions (the reference solutions, the stubs, an empty one, one in
# nested folders, one that does not compile, one that hangs, one that crashes, 8 test kernels of
# tests/kernels, two per puzzle, as one-puzzle submissions, and one graded by a course file), each graded by grading/gradescope/run_autograder on the simulator
# and its results.json checked by check_gradescope_results.
#   dry_run.sh PUZZLE_TOOL CHECKER SOURCE_DIR WORK_DIR
set -euo pipefail
shopt -s nullglob

tool="$1" checker="$2" root="$3" work="$4"
rm -rf "$work"
mkdir -p "$work/results"
# Every submission lands in the same folder, as each lands in /autograder/submission on Gradescope; so a file
# two submissions share (a reference solution) is built once, as the build cache keys on path and text.
staging="$work/submission"
export PUZZLE_SOURCE_DIR="$root" PUZZLE_TOOL="$tool" PUZZLE_SUBMISSION_DIR="$staging"
export PUZZLE_TIME_BUDGET=400 PUZZLE_SECRET_SEED_FILE=/nonexistent PUZZLE_COURSE_FILE=/nonexistent
unset PUZZLE_SECRET_SEED PUZZLE_CASE_TIMEOUT  # the hanging submission stops at its case's CPU-time limit

puzzle_file() { # the file name of puzzle ID, as a submission names it: 01_row_softmax.cu
  local folders=("$root"/solutions/"$(printf %02d "$1")"_*)
  echo "$(basename "${folders[0]}").cu"
}
all_ids=()
for f in "$root"/solutions/[0-9][0-9]_*/1_clear.cu; do
  all_ids+=("$((10#$(basename "$(dirname "$f")" | cut -c1-2)))")
done

fresh() { rm -rf "$staging" && mkdir -p "$staging"; }
put() { # put ID FILE [SUBDIR]: FILE as puzzle ID's file of the submission, with the headers beside it
  mkdir -p "$staging/${3:-}"
  cp "$2" "$staging/${3:-}/$(puzzle_file "$1")"
  for header in "$(dirname "$2")"/*.cuh; do cp "$header" "$staging/${3:-}/"; done
}
put_kernel() { # put_kernel ID FILE: a test kernel, in kernels/pNN/ beside the headers it includes (../p01/...)
  for header in "$root"/tests/kernels/p*/*.cuh; do
    mkdir -p "$staging/kernels/$(basename "$(dirname "$header")")"
    cp "$header" "$staging/kernels/$(basename "$(dirname "$header")")/"
  done
  put "$1" "$2" "kernels/$(basename "$(dirname "$2")")"
}
solution() { # the clear solution: it stands alone, as a submitted file must
  local file
  file="$(puzzle_file "$1")"
  echo "$root/solutions/${file%.cu}/1_clear.cu"
}
stub() { local name; name="$(puzzle_file "$1")"; echo "$root/puzzles/${name%.cu}/$name"; }
expected_status() { grep -m1 '^// expect:' "$1" | awk '{print $3}'; }

submissions=0
failures=0
grade() { # grade NAME PUZZLES ID:STATUS ...: run the autograder on the staged submission and check it
  local name="$1" puzzles="$2"
  shift 2
  submissions=$((submissions + 1))
  local results="$work/results/$name" start=$SECONDS
  if ! PUZZLE_RESULTS_DIR="$results" PUZZLE_GRADE_PUZZLES="$puzzles" \
    bash "$root/grading/gradescope/run_autograder" >"$results.log" 2>&1; then
    echo "FAIL $name: run_autograder did not exit with 0"
    failures=$((failures + 1))
    return
  fi
  if "$checker" "$results/results.json" "$results/puzzle-report.json" "$@" 2>"$results.problems"; then
    echo "ok   $name ($((SECONDS - start)) s): $*"
  else
    echo "FAIL $name: $*"
    cat "$results.problems" "$results.log"
    failures=$((failures + 1))
  fi
}

# 1. The reference solutions of every puzzle in the registry: full marks.
fresh
expect=()
for id in "${all_ids[@]}"; do
  put "$id" "$(solution "$id")"
  expect+=("$id:passed")
done
grade solutions "" "${expect[@]}"

# 2-4. The untouched stubs; an empty submission; the solutions inside a copy of the repository.
fresh
for id in 1 2 3 4; do put "$id" "$(stub "$id")"; done
grade stubs 1-4 1:failed 2:failed 3:failed 4:failed
fresh
grade empty 1-4 1:missing 2:missing 3:missing 4:missing
# Submissions 4-7 put reference solutions beside what they test: puzzles 2 and 3, whose cases take the
# least time of the four (the solutions of every puzzle are graded in full in 1.).
fresh
for id in 2 3; do put "$id" "$(solution "$id")" "flash-puzzles/puzzles"; done
grade nested 1-4 1:missing 2:passed 3:passed 4:missing

# 5-7. Puzzle 1 does not compile, hangs, or crashes: only puzzle 1 loses its points.
for kernel in wrong_compile_error wrong_hang wrong_null_write; do
  file="$root/tests/kernels/p01/$kernel.cu"
  fresh
  put_kernel 1 "$file"
  put 2 "$(solution 2)"
  grade "p01_$kernel" 1-2 "1:$(expected_status "$file")" 2:passed
done

# 8-15. Test kernels, a right and a wrong one per puzzle, each a submission of one puzzle file (the others
# missing). Every test kernel has its own check (tests/kernels); here they go through the autograder. Of
# each puzzle's kernels, those that take the least time on every case (the wrong ones fail some cases,
# pass others: a partial score).
kernels=()
for name in p02/correct_exp_cached_in_y p02/wrong_first_tile_max p03/correct_split_row \
  p03/wrong_combine_adds_sums p04/correct_thread_per_row p04/wrong_shuffle_no_width \
  p01/correct_thread_per_row p01/wrong_no_max; do
  kernels+=("$root/tests/kernels/$name.cu")
done
for file in "${kernels[@]}"; do
  id=$((10#$(basename "$(dirname "$file")" | cut -c2-)))
  fresh
  put_kernel "$id" "$file"
  expect=()
  for other in 1 2 3 4; do
    if ((other == id)); then expect+=("$other:$(expected_status "$file")"); else expect+=("$other:missing"); fi
  done
  grade "p0${id}_$(basename "$file" .cu)" 1-4 "${expect[@]}"
done

# 16. A course of one puzzle worth 10 points (grading/course.txt, as make_autograder.sh --course packs it):
# only that puzzle is graded, and its cases share the 10 points.
fresh
put 0 "$(solution 0)"
printf '# the course\n0 10\n' >"$work/course.txt"
export PUZZLE_COURSE_FILE="$work/course.txt"
grade course "" 0:passed:10
export PUZZLE_COURSE_FILE=/nonexistent

echo "dry run: $submissions submissions, $failures failed, ${SECONDS} s"
((submissions == 16)) || { echo "dry run: expected 16 submissions"; exit 1; }
((failures == 0))
