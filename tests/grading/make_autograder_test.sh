#!/usr/bin/env bash
# grading/gradescope/make_autograder.sh packs a zip that Gradescope accepts: setup.sh and run_autograder at
# the top, executable, the sources beside them, the secret seed and course file where run_autograder looks,
# no build outputs. It packs the last commit only: an uncommitted edit or an untracked student's file beside
# the stubs stays out. An empty or missing seed file is refused in one line, with no zip. Run twice in a
# repository of its own, it leaves that repository clean and never packs its own zip.
#   make_autograder_test.sh SOURCE_DIR WORK_DIR       (exits 77, "skipped", without git or python3)
set -euo pipefail
root="$1" work="$2"
command -v git >/dev/null && command -v python3 >/dev/null && git -C "$root" rev-parse >/dev/null 2>&1 || {
  echo "needs git, python3 and a git checkout: skipped"
  exit 77
}
rm -rf "$work" && mkdir -p "$work"
echo "a secret" >"$work/secret"
printf '# puzzle points\n1 10\n' >"$work/course.txt"
bash "$root/grading/gradescope/make_autograder.sh" "$work/autograder.zip" --secret-seed-file "$work/secret" \
  --course "$work/course.txt"
python3 - "$work/autograder.zip" <<'PY'
import stat, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
problems = []
for script in ("setup.sh", "run_autograder"):
    if script not in names:
        problems.append(script + " is not at the top of the zip")
    elif not (z.getinfo(script).external_attr >> 16) & stat.S_IXUSR:
        problems.append(script + " is not executable")
for needed in ("CMakeLists.txt", "puzzle", "grading/gradescope/run_autograder", "grading/secret_seed",
               "grading/course.txt"):
    if needed not in names:
        problems.append(needed + " is missing")
if "grading/secret_seed" in names and z.read("grading/secret_seed") != b"a secret\n":
    problems.append("the secret seed is not the one given")
if "puzzle" in names and not (z.getinfo("puzzle").external_attr >> 16) & stat.S_IXUSR:
    problems.append("./puzzle lost its executable bit")
if any(n.startswith(("build/", ".puzzle/")) for n in names):
    problems.append("build outputs or progress are in the zip")
if problems:
    sys.exit("\n".join(problems))
print("ok: %d files" % len(names))
PY

# A small repository of its own: a committed stub, then an instructor's uncommitted edit of it and a class's
# files left untracked beside it.
repo="$work/repo"
mkdir -p "$repo/grading/gradescope" "$repo/puzzles/01_row_softmax"
cp "$root/.gitignore" "$repo/"
cp "$root"/grading/gradescope/{make_autograder.sh,setup.sh,run_autograder} "$repo/grading/gradescope/"
echo "// the stub as committed" >"$repo/puzzles/01_row_softmax/01_row_softmax.cu"
git -C "$repo" init -q && git -C "$repo" add -A
git -C "$repo" -c user.name=test -c user.email=test@example.com commit -qm files
echo "// an edit not committed" >>"$repo/puzzles/01_row_softmax/01_row_softmax.cu"
mkdir -p "$repo/class/alice" "$repo/puzzles/01_row_softmax/bob"
echo "// alice's answer" >"$repo/class/alice/01_row_softmax.cu"
echo "// bob's answer" >"$repo/puzzles/01_row_softmax/bob/01_row_softmax.cu"
echo "// carol's answer" >"$repo/puzzles/01_row_softmax/carol_01_row_softmax.cu"
said="$(cd "$repo" && bash grading/gradescope/make_autograder.sh 2>&1)"
[[ $said == *"left out: 4 "* ]] || { echo "the uncommitted and untracked paths were not counted: $said"; exit 1; }
python3 - "$repo/build/autograder.zip" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
students = [n for n in names if "alice" in n or "bob" in n or "carol" in n]
if students:
    sys.exit("the zip packs students' files: %s" % students)
if z.read("puzzles/01_row_softmax/01_row_softmax.cu") != b"// the stub as committed\n":
    sys.exit("the zip packs the stub's uncommitted edit")
print("ok: the last commit only, no student's file")
PY
git -C "$repo" checkout -q -- . && rm -rf "$repo/class" "$repo/puzzles/01_row_softmax/bob" \
  "$repo/puzzles/01_row_softmax/carol_01_row_softmax.cu" "$repo/build"

# A seed file that is empty or missing is refused in one line, and no zip is written.
: >"$work/empty_secret"
for seed in "$work/empty_secret" "$work/no_such_secret"; do
  code=0
  said="$(cd "$repo" && bash grading/gradescope/make_autograder.sh out.zip --secret-seed-file "$seed" 2>&1)" || code=$?
  if ((code == 0)) || [[ $(wc -l <<<"$said") -ne 1 || $said != *"$seed"* ]] || [[ -e $repo/out.zip ]]; then
    echo "a bad secret seed file ($seed) was not refused in one line (exit $code): $said"
    exit 1
  fi
done
echo "ok: empty and missing seed files refused"

# Twice: by default the zip lands where git ignores it; asked for a path inside the tree, the second zip
# does not hold the first.
for run in 1 2; do
  (cd "$repo" && bash grading/gradescope/make_autograder.sh >/dev/null)
  (cd "$repo" && bash grading/gradescope/make_autograder.sh packed.zip >/dev/null)
done
left="$(git -C "$repo" status --porcelain --untracked-files=all -- . ':!packed.zip')"
[[ -z "$left" ]] || { echo "make_autograder.sh left files git does not ignore: $left"; exit 1; }
zip="$(find "$repo" -name '*.zip' ! -name packed.zip -print -quit)"
[[ -n "$zip" ]] || { echo "the default run wrote no zip"; exit 1; }
python3 - "$zip" "$repo/packed.zip" <<'PY'
import sys, zipfile
for path in sys.argv[1:]:
    zips = [n for n in zipfile.ZipFile(path).namelist() if n.endswith(".zip")]
    if zips:
        sys.exit("%s packs zips: %s" % (path, zips))
print("ok: run twice, no zip packed, nothing left for git")
PY
