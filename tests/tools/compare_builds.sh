#!/usr/bin/env bash
# Not a test: runs the same lab files with two cudalab executables, one after the other per lab file,
# so a refactoring can be shown to leave the figures where they were. Results go to OUT/old/<name>
# and OUT/new/<name>; tests/tools/compare_figures.py OUT prints GB/s side by side.
# usage: compare_builds.sh OLD_CUDALAB NEW_CUDALAB OUT "lab.toml [cudalab run args]" ...
set -uo pipefail
old=$1 new=$2 out=$3
shift 3
mkdir -p "$out/old" "$out/new"
for spec in "$@"; do
  read -r -a words <<<"$spec"
  name=$(basename "${words[0]}" .toml)
  for side in old new; do
    exe=$old; [ "$side" = new ] && exe=$new
    start=$(date +%s)
    "$exe" run "${words[@]}" --out "$out/$side/$name" --no-color --format csv > "$out/$side/$name.log" 2>&1
    echo "$side $name: exit $? in $(( $(date +%s) - start )) s"
  done
done
