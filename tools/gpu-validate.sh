#!/usr/bin/env bash
# Validates the project on a machine with an NVIDIA GPU: configure + build, the whole test suite (GPU and
# simulator), every version of each solution ladder checked and sanitized, and the ladders timed side by
# side (`puzzle bench N --ladder`).
# Usage: tools/gpu-validate.sh OUTDIR [extra cmake args...]   (logs and JSON reports go to OUTDIR)
set -uo pipefail
out="${1:?usage: tools/gpu-validate.sh OUTDIR [cmake args]}"
shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PUZZLE_BUILD_DIR:-$root/build}"
mkdir -p "$out"
cd "$root"

step() { printf '\n=== %s\n' "$*" | tee -a "$out/summary.txt"; }

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee -a "$out/summary.txt"
nvcc --version | tail -2 | tee -a "$out/summary.txt"
g++ --version | head -1 | tee -a "$out/summary.txt"
cmake --version | head -1 | tee -a "$out/summary.txt"

step "configure + build"
{ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" && cmake --build "$build" -j "$(nproc)"; } >"$out/build.log" 2>&1
echo "build exit $?" | tee -a "$out/summary.txt"
tail -5 "$out/build.log"

step "doctor"
"$build/puzzle" doctor 2>&1 | tee "$out/doctor.txt"

step "test suite"
ctest --test-dir "$build" --output-on-failure -j 8 >"$out/ctest.log" 2>&1
echo "ctest exit $?" | tee -a "$out/summary.txt"
grep -E "tests passed|tests failed|Failed|\*\*\*" "$out/ctest.log" | tail -40 | tee -a "$out/summary.txt"

for folder in solutions/[0-9][0-9]_*; do
  id=$(basename "$folder" | cut -c1-2)
  for version in "$folder"/[0-9]*_*.cu; do
    name=$(basename "$version" .cu)
    step "puzzle $id: solution $name on the GPU"
    "$build/puzzle" check "$id" --file "$version" --backend gpu --json "$out/solution_${id}_$name.json" 2>&1 |
      tee "$out/solution_${id}_$name.txt"
    step "puzzle $id: compute-sanitizer (memcheck, racecheck, synccheck) on $name"
    child=$(ls -t "$build"/checks/*/gpu-*/child 2>/dev/null | head -1)  # the child just built for it
    if [[ -n "$child" ]]; then
      for tool in memcheck racecheck synccheck; do
        work=$(mktemp -d)
        printf '{"puzzle":%d,"seed":1,"mode":"check","cases":[0,1,2,3,4],"warmup":0,"reps":0}\n' "$((10#$id))" >"$work/job.json"
        # The child takes a session key on stdin (any, here: nothing judges its records) and its code.
        printf '%032d\n' 0 | compute-sanitizer --tool "$tool" --error-exitcode 9 "$child" "$work" \
          "$(dirname "$child")/learner.so" >"$out/sanitize_${id}_${name}_$tool.txt" 2>&1
        echo "$name $tool exit $? ($(tail -1 "$out/sanitize_${id}_${name}_$tool.txt"))" | tee -a "$out/summary.txt"
      done
    fi
  done
  step "puzzle $id: every version of the ladder timed side by side"
  "$build/puzzle" bench "$id" --ladder --json "$out/ladder_$id.json" --svg "$out/ladder_$id.svg" 2>&1 |
    tee "$out/ladder_$id.txt"
done
