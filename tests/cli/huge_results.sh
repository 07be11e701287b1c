#!/usr/bin/env bash
# compare, export and plot refuse a results file over the 256 MiB they read, with exit 3 and a message
# naming it, before reading it: the file is sparse, 300 MiB of nothing on disk (the 2026-11-26 red-team
# review's F27: a 400 MB results.json took compare to 2 GB resident).
# usage: huge_results.sh CUDALAB
set -u
cudalab=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d) || fail "no temporary folder"
trap 'rm -rf "$work"' EXIT
truncate -s 300M "$work/results.json" || fail "cannot make a sparse file"
for command in compare export plot; do
  args=("$work")
  [ $command = compare ] && args+=("$work")
  out=$("$cudalab" $command "${args[@]}" 2>&1 >/dev/null)
  code=$?
  [ $code = 3 ] || fail "$command exited $code: $out"
  [[ $out == *"results.json: larger than the 256 MiB cudalab reads as results"* ]] || fail "$command said: $out"
done
echo "ok: a huge results file is refused (exit 3)"
