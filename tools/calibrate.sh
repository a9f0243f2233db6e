#!/usr/bin/env bash
# Times, on this machine's GPU, every version of every solution ladder (solutions/NN_slug/[0-9]*_*.cu) and
# every correct test kernel (tests/kernels/pNN/correct_*.cu) on its puzzle's timed cases, and writes the
# table that the simulator's speed estimate is held to (tests/perf/calibration.cpp, docs/simulator.md):
#   docs/measurements/calibration_<gpu>_<date>.json
# Usage: tools/calibrate.sh [BUILD_DIR]   (default: build/, configured with CUDA, e.g. by `./puzzle test`)
# First every child is built, several at a time on a tiny case (nvcc is the slow part); then each kernel's
# timed cases run alone on the GPU (`puzzle check N --file F --backend gpu --timed --json`), its times as
# `check` reports them. A kernel that fails or does not build is listed and left out of the table.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" 2>/dev/null && pwd)" || { echo "calibrate: no build folder ${1:-build}" >&2; exit 2; }
puzzle="$build/puzzle"
say() { printf 'calibrate: %s\n' "$*" >&2; }
[[ -x $puzzle ]] || { say "no $puzzle: build first (cmake --build $build)"; exit 2; }
command -v python3 >/dev/null || { say "python3 is needed to write the table"; exit 2; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
case "$gpu" in
  *H100*) key=h100 ;;
  *H200*) key=h200 ;;
  *) say "no GPU of the estimate's table (harness/perf/gpu_table.cpp) answers: '${gpu:-none}'"; exit 2 ;;
esac
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
date=$(date -u +%Y-%m-%d)
table="$root/docs/measurements/calibration_${key}_${date}.json"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS

# The kernels, one "N FILE" line each.
: >"$work/kernels"
for dir in "$root"/puzzles/[0-9][0-9]_*/; do
  slug=$(basename "$dir")
  for file in "$root/solutions/$slug"/[0-9]*_*.cu "$root/tests/kernels/p${slug:0:2}"/correct_*.cu; do
    [[ -f $file ]] && echo "$((10#${slug:0:2})) ${file#"$root"/}" >>"$work/kernels"
  done
done
say "$(wc -l <"$work/kernels") kernels on an $gpu (driver $driver)"

# 1. Every child built: a check of its puzzle's first case, several at a time.
declare -A first
while read -r n file; do
  [[ -n ${first[$n]:-} ]] || first[$n]=$("$puzzle" check "$n" --case '?' 2>&1 | sed -n 's/.*its cases are: *//p' |
    awk '{print $1}')
  echo "$n $root/$file ${first[$n]}"
done <"$work/kernels" >"$work/builds"
jobs=$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))
xargs -P "$jobs" -L 1 sh -c '"$0" check "$1" --file "$2" --backend gpu --case "$3" >/dev/null 2>&1' "$puzzle" \
  <"$work/builds"
say "built in $((SECONDS - started)) s"

# 2. The timed cases of each kernel, one kernel at a time.
i=0
while read -r n file; do
  i=$((i + 1))
  if "$puzzle" check "$n" --file "$root/$file" --backend gpu --timed --json "$work/report_$i.json" \
       >"$work/log_$i.txt" 2>&1; then
    echo "$n $file $work/report_$i.json" >>"$work/reports"
  else
    say "left out: $file (puzzle $n): $(grep -E 'FAILED|error' "$work/log_$i.txt" | head -1)"
  fi
done <"$work/kernels"
say "timed in $((SECONDS - started)) s"

python3 - "$work/reports" "$table" "$key" "$gpu" "$driver" "$date" <<'PYTHON'
import json, sys
reports, table, key, gpu, driver, date = sys.argv[1:]
entries, copy = [], None
for line in open(reports):
    n, file, path = line.split()
    report = json.load(open(path))
    copy = copy or report["device"]["copy_gbps"]
    for case in report["puzzles"][0]["cases"]:
        if case["time_ms"] is None:
            continue
        entries.append({"puzzle": int(n), "file": file, "case": case["name"], "ms": case["time_ms"],
                        "source": "tools/calibrate.sh, " + date})
        rate = f'{case["tflops"]:.1f} TFLOP/s' if case["tflops"] else f'{case["gbps"]:.0f} GB/s'
        print(f'{file:56s} {case["name"]:22s} {case["time_ms"]:10.4f} ms  {rate}')
json.dump({"device": key, "gpu": gpu, "kind": "measured", "date": date, "driver": driver, "copy_gbps": copy,
           "note": "Median times of `puzzle check N --file F --backend gpu --timed` on this GPU, by tools/calibrate.sh.",
           "entries": entries}, open(table, "w"), indent=1)
print(f"{len(entries)} times of {sum(1 for _ in open(reports))} kernels written to {table}")
PYTHON
say "done in $((SECONDS - started)) s"
