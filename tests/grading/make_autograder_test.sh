#!/usr/bin/env bash
# grading/gradescope/make_autograder.sh packs a zip that Gradescope accepts: setup.sh and run_autograder at
# the top, executable, the sources beside them, the secret seed where run_autograder looks, no build outputs;
# run twice in a repository of its own, it leaves that repository clean and never packs its own zip.
#   make_autograder_test.sh SOURCE_DIR WORK_DIR       (exits 77, "skipped", without git or python3)
set -euo pipefail
root="$1" work="$2"
command -v git >/dev/null && command -v python3 >/dev/null && git -C "$root" rev-parse >/dev/null 2>&1 || {
  echo "needs git, python3 and a git checkout: skipped"
  exit 77
}
rm -rf "$work" && mkdir -p "$work"
echo "a secret" >"$work/secret"
bash "$root/grading/gradescope/make_autograder.sh" "$work/autograder.zip" --secret-seed-file "$work/secret"
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
for needed in ("CMakeLists.txt", "puzzle", "grading/gradescope/run_autograder", "grading/secret_seed"):
    if needed not in names:
        problems.append(needed + " is missing")
if "grading/secret_seed" in names and z.read("grading/secret_seed") != b"a secret\n":
    problems.append("the secret seed is not the one given")
if any(n.startswith(("build/", ".puzzle/")) for n in names):
    problems.append("build outputs or progress are in the zip")
if problems:
    sys.exit("\n".join(problems))
print("ok: %d files" % len(names))
PY

# Twice in a small repository: by default the zip lands where git ignores it; asked for a path inside the
# tree, the second zip does not hold the first.
repo="$work/repo"
mkdir -p "$repo/grading/gradescope"
cp "$root/.gitignore" "$repo/"
cp "$root"/grading/gradescope/{make_autograder.sh,setup.sh,run_autograder} "$repo/grading/gradescope/"
git -C "$repo" init -q && git -C "$repo" add -A
git -C "$repo" -c user.name=test -c user.email=test@example.com commit -qm files
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
