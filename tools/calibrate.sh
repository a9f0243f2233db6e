#!/usr/bin/env bash
# Times, on this machine's GPU, every version of every solution ladder (solutions/NN_slug/[0-9]*_*.cu) and
# every correct test kernel that runs on a GPU (tests/kernels/pNN/correct_*.cu, not `backends: sim`) on
# its puzzle's timed cases, and writes the table that the simulator's speed estimate is held to
# (tests/perf/calibration.cpp, docs/simulator.md "Estimated speed"):
#   docs/measurements/calibration_<gpu>_<date>.json
# Usage: tools/calibrate.sh [--dry-run] [--budget SECONDS] [BUILD_DIR]
#   BUILD_DIR  a build configured with CUDA (default: build-gpu/ if there is one, else build/)
#   --budget   seconds after which no kernel starts its timing (default 200: with the last kernel's and
#              the table's, about 240 in all); those left are listed, the ladders are timed first
#   --dry-run  list the kernels and the commands, without a GPU
# The children build several at a time, each by a check of its puzzle's first case (nvcc is the slow part),
# while the built ones are timed one at a time: `puzzle check N --file F --backend gpu --timed --json`, the
# times its report gives. A kernel that fails or does not build is listed and left out of the table.
# Then, on any machine: `perf_calibration --count docs/measurements` stores the simulator's counts of the
# new table's kernels (tests/perf/CMakeLists.txt), and the calibration test holds the model to it.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf 'calibrate: %s\n' "$*" >&2; }
dry_run=0 budget=200 build_arg=
while (($#)); do
  case $1 in
    --dry-run) dry_run=1 ;;
    --budget) budget=${2:?--budget needs seconds}; shift ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) say "unknown option $1"; exit 2 ;;
    *) build_arg=$1 ;;
  esac
  shift
done
[[ -n $build_arg ]] || { build_arg=$root/build; [[ -d $root/build-gpu ]] && build_arg=$root/build-gpu; }
build="$(cd "$build_arg" 2>/dev/null && pwd)" || { say "no build folder $build_arg"; exit 2; }
puzzle="$build/puzzle"
[[ -x $puzzle ]] || { say "no $puzzle: build first (cmake --build $build)"; exit 2; }
command -v python3 >/dev/null || { say "python3 is needed to write the table"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS

# The kernels, one "N FILE" line each: every ladder first, then the test kernels.
for file in "$root"/solutions/[0-9][0-9]_*/[0-9]*_*.cu; do
  slug=$(basename "$(dirname "$file")")
  echo "$((10#${slug:0:2})) ${file#"$root"/}"
done >"$work/kernels"
for file in "$root"/tests/kernels/p[0-9][0-9]/correct_*.cu; do
  grep -q '^// backends: sim *$' "$file" && continue  # right on the simulator's cases only
  dir=$(basename "$(dirname "$file")")
  echo "$((10#${dir:1:2})) ${file#"$root"/}"
done >>"$work/kernels"

# The puzzles' first cases (the smallest): a check of one builds the child.
declare -A first
while read -r n file; do
  [[ -n ${first[$n]:-} ]] && continue
  first[$n]=$("$puzzle" check "$n" --case '?' 2>&1 | sed -n 's/.*its cases are: *//p' | awk '{print $1}')
  [[ -n ${first[$n]} ]] || { say "puzzle $n lists no cases"; exit 2; }
done <"$work/kernels"
i=0
while read -r n file; do
  i=$((i + 1))
  echo "$n $root/$file ${first[$n]} $work/built_$i"
done <"$work/kernels" >"$work/builds"
count=$(wc -l <"$work/kernels")

if ((dry_run)); then
  say "$count kernels; each built by (several at a time), then timed by (one at a time):"
  while read -r n file case marker; do
    echo "$puzzle check $n --file $file --backend gpu --case $case"
    echo "$puzzle check $n --file $file --backend gpu --timed --json REPORT.json"
  done <"$work/builds"
  exit 0
fi

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
case "$gpu" in
  *H100*) key=h100 ;;
  *H200*) key=h200 ;;
  *) say "no GPU of the estimate's table (harness/perf/gpu_table.cpp) answers: '${gpu:-none}'"; exit 2 ;;
esac
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
date=$(date -u +%Y-%m-%d)
table="$root/docs/measurements/calibration_${key}_${date}.json"
say "$count kernels on an $gpu (driver $driver), $budget s"

# 1. The children build in the background, half the cores' worth at a time; each leaves its marker.
cores=$(nproc)
jobs=$((cores / 2 > 1 ? cores / 2 : 1))
setsid xargs -P "$jobs" -L 1 sh -c '"$0" check "$1" --file "$2" --backend gpu --case "$3" >"$4.log" 2>&1; echo $? >"$4"' \
  "$puzzle" <"$work/builds" &
builder=$!  # its own process group (setsid): stopped whole once the budget is spent

# 2. Each kernel's timed cases once its child is built, one kernel at a time on the GPU.
: >"$work/reports"
i=0
while read -r n file case marker; do
  i=$((i + 1))
  while [[ ! -f $marker ]] && ((SECONDS - started < budget)); do sleep 0.2; done
  if ((SECONDS - started >= budget)); then
    say "left out (past the budget): ${file#"$root"/}"
    continue
  fi
  if [[ $(cat "$marker") == 2 ]]; then  # check's exit code: the file did not compile
    say "left out (does not build): ${file#"$root"/}"
    continue
  fi
  if "$puzzle" check "$n" --file "$file" --backend gpu --timed --timeout 30 --json "$work/report_$i.json" \
       >"$work/log_$i.txt" 2>&1; then
    echo "$n ${file#"$root"/} $work/report_$i.json" >>"$work/reports"
  else
    say "left out (its timed cases did not pass): ${file#"$root"/}: $(grep -E 'FAIL|error' "$work/log_$i.txt" | head -1)"
  fi
done <"$work/builds"
kill -- -"$builder" 2>/dev/null
wait "$builder" 2>/dev/null
say "timed in $((SECONDS - started)) s"

python3 - "$work/reports" "$table" "$key" "$gpu" "$driver" "$date" <<'PYTHON'
import json, sys
reports, table, key, gpu, driver, date = sys.argv[1:]
entries, copy, kernels = [], None, 0
for line in open(reports):
    n, file, path = line.split()
    report = json.load(open(path))
    copy = copy or report["device"]["copy_gbps"]
    kernels += 1
    for case in report["puzzles"][0]["cases"]:
        if case["time_ms"] is None:
            continue
        entries.append({"puzzle": int(n), "file": file, "case": case["name"], "ms": case["time_ms"]})
        rate = f'{case["tflops"]:.1f} TFLOP/s' if case["tflops"] else f'{case["gbps"]:.0f} GB/s'
        print(f'{file:56s} {case["name"]:22s} {case["time_ms"]:10.4f} ms  {rate}')
json.dump({"device": key, "gpu": gpu, "kind": "measured", "date": date, "driver": driver, "copy_gbps": copy,
           "note": "Median times of `puzzle check N --file F --backend gpu --timed` on this GPU, by tools/calibrate.sh.",
           "entries": entries}, open(table, "w"), indent=1)
print(f"{len(entries)} times of {kernels} kernels written to {table}")
PYTHON
say "done in $((SECONDS - started)) s; now store the simulator's counts of the new table:"
say "  $build/tests/perf/perf_calibration --count $root/docs/measurements"
