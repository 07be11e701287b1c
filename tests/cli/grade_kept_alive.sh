#!/usr/bin/env bash
# The kept-alive watchdog (issue 31), on the fake runtime: kept_alive.cu's first call writes an empty line to
# descriptor 3 every tenth of a second for a minute before it does its work. Graded with the mapped-overlap
# assignment's unit_timeout_s lowered to 3 s (a copy of it; on the fake the mapped_pinned lab sets up and calls the
# launcher, where the reduction lab's CUB setup does not get that far). Since the two-process harness, the launcher
# runs in the submission's own process, whose descriptor 3 is its socket to the harness: its first empty line ends
# the call ("not a reply"), and each correctness test fails at once - or, where a line still reached a
# watchdog, the child would be killed 3 s after it started ("timed out after 3 s"). Either way the grade ends long
# before the minute a single kept-alive child would have taken. (reduction/kept_alive.cu is the same trick for
# reduction-sum, graded on a GPU by gpu.cli_grade_cheats_timing.)
# usage: grade_kept_alive.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
sed -e "s|^lab = \"../../mapped_pinned.toml\"|lab = \"$root/labs/mapped_pinned.toml\"|" \
  -e "s|^unit_timeout_s = 30|unit_timeout_s = 3\ntotal_timeout_s = 150|" \
  "$root/labs/assignments/mapped-overlap/assignment.toml" > "$work/assignment.toml"
grep -q "^unit_timeout_s = 3" "$work/assignment.toml" || fail "the assignment's copy has no unit_timeout_s of 3 s"
"$cudalab" assignment init --lab "$root/labs/mapped_pinned.toml" --slot add_overlapped --out "$work/init" > /dev/null
grade() {  # grade [--no-sandbox]: exit code
  local code=0
  "$cudalab" grade "$work/assignment.toml" --submission "$root/tests/fixtures/submissions/mapped_pinned/kept_alive.cu" \
    --student mallory --secret "$work/init/secret.key" --out "$work/grade" "$@" > "$work/grade.txt" 2>&1 || code=$?
  echo "$code"
}
start=$(date +%s)
code=$(grade)
# No sandbox can be made here (exit 13): the watchdog is the same without one.
if [ "$code" = 13 ]; then
  start=$(date +%s)
  code=$(grade --no-sandbox)
fi
elapsed=$(($(date +%s) - start))
[ "$code" = 0 ] || fail "grade exited $code: $(tail -5 "$work/grade.txt")"
status() {  # status TEST_ID
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(next(t['status'] for t in d['tests'] if t['id']==sys.argv[2]))" \
    "$work/grade/grade.json" "$1"
}
for t in odd-sizes chunkings hidden-sizes; do
  case "$(status $t)" in error | failed | timed_out) ;; *) fail "the kept-alive child's $t is $(status $t)" ;; esac
done
grep -q "not a reply\|timed out after 3 s" "$work/grade/grade.json" ||
  fail "grade.json says neither why the call ended nor the limit it was given"
[ "$elapsed" -lt 60 ] || fail "the grade took $elapsed s: a child lived past its unit_timeout_s"
echo "ok: each kept-alive child killed at its limit, the grade done in $elapsed s"
