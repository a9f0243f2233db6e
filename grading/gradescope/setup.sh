#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu 22.04 or newer, or
# Debian 12): install the compilers, build the `puzzle` tool, and grade the reference solutions once, so that
# a broken image fails here rather than on the first student. docs/grading.md explains it.
set -euo pipefail

source_dir="${PUZZLE_SOURCE_DIR:-/autograder/source}"
build="$source_dir/build"
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq
# clang: its CUDA mode holds graded checks to CUDA's rules where there is no nvcc (docs/simulator.md).
apt-get install -y -qq g++ make ninja-build cmake binutils clang python3 python3-pip ca-certificates >/dev/null

# C++20 as the tool uses it needs g++ 12 (Ubuntu 22.04 ships 11).
cxx=g++
if (($(g++ -dumpversion | cut -d. -f1) < 12)); then
  apt-get install -y -qq g++-12 >/dev/null
  cxx=g++-12
fi
# CMake 3.24 or newer (Ubuntu 22.04 ships 3.22): from PyPI where the system's is older.
cmake_version="$(cmake --version | head -1 | awk '{print $3}')"
if [[ "$(printf '%s\n3.24\n' "$cmake_version" | sort -V | head -1)" != "3.24" ]]; then
  python3 -m pip install -q 'cmake>=3.24,<4' || python3 -m pip install -q --break-system-packages 'cmake>=3.24,<4'
  hash -r
fi

# CLI11, doctest and nlohmann/json: CMake fetches the versions the project was written against.
cmake -S "$source_dir" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DBUILD_TESTING=OFF
cmake --build "$build" -j "$(nproc)" --target puzzle

# An empty secret would make every grade stop with an error: refuse it now.
secret_file="$source_dir/grading/secret_seed"
if [[ -f "$secret_file" ]] && ! grep -q '[^[:space:]]' "$secret_file"; then
  echo "setup: $secret_file is empty; put the secret seed in it or leave it out of the autograder" >&2
  exit 1
fi

# Self-test: the reference solutions must get full marks in this image, with the secret seed the students'
# grades will use.
check="$(mktemp -d)"
solutions="$(mktemp -d)"  # each puzzle's clear solution (it stands alone) under the name a submission has
for clear in "$source_dir"/solutions/[0-9][0-9]_*/1_clear.cu; do
  cp "$clear" "$solutions/$(basename "$(dirname "$clear")").cu"
done
PUZZLE_RESULTS_DIR="$check" PUZZLE_SUBMISSION_DIR="$solutions" \
  bash "$source_dir/grading/gradescope/run_autograder"
python3 - "$check/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
top = sum(t["max_score"] for t in r["tests"])
if not r["tests"] or r["score"] != top:
    sys.exit("setup: the reference solutions scored %s of %s:\n%s" % (r["score"], top, r.get("output", "")))
print("setup: the reference solutions score %s/%s" % (r["score"], top))
PY
rm -rf "$check"
