#!/usr/bin/env bash
# A class batch run again, on the fake runtime, ends with every student graded once (red-team review
# 2026-11-26 F14, and issue 30's "a batch killed at any point and run again"):
# - with other --emit options than the batch that graded a student: one without --emit grades a changed
#   hand-in again (the earlier batch's render is known as its own, never "not graded"), one with another
#   --emit keeps the unchanged students and writes them the new render from their reports;
# - killed (SIGKILL) at points all through a batch, one student after another and with a worker per GPU
#   (--devices 0,1: the workers die with it), each run again, the last run to its end: exit 0, each
#   student one complete report and one gradebook row. Exit 77 where no sandbox can be made.
# usage: grade_batch_rerun.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work/class"
fail() { echo "FAIL: $*" >&2; exit 1; }
export FAKECUDA_GPUS=2
assignment=$root/labs/assignments/mapped-overlap/assignment.toml
broken=$root/tests/fixtures/submissions/mapped_pinned/compile_error.cu
"$cudalab" assignment init --lab "$root/labs/mapped_pinned.toml" --slot add_overlapped --out "$work/init" > /dev/null
batch() {  # OUT [OPTION...]: the class into OUT (exec: a batch in the background is cudalab itself, for kill)
  local out=$1
  shift
  exec "$cudalab" grade "$assignment" --submissions "$work/class" --secret "$work/init/secret.key" --out "$out" "$@"
}
cp "$broken" "$work/class/alice.cu"
cp "$broken" "$work/class/bob.cu"

# Other --emit options than the batch before.
code=0; (batch "$work/emit" --emit md=notes.md) > "$work/emit1.txt" 2>&1 || code=$?
[ "$code" = 13 ] && exit 77
[ "$code" = 0 ] || fail "the first batch exited $code: $(tail -3 "$work/emit1.txt")"
[ -f "$work/emit/bob/notes.md" ] || fail "no notes.md for bob"
echo "// changed" >> "$work/class/bob.cu"
code=0; (batch "$work/emit") > "$work/emit2.txt" 2>&1 || code=$?
[ "$code" = 0 ] || fail "a batch without the first one's --emit exited $code: $(grep -v '^ ' "$work/emit2.txt" | tail -5)"
grep -q "^alice: graded already" "$work/emit2.txt" || fail "alice was not kept"
grep -q "^== bob " "$work/emit2.txt" || fail "bob's changed hand-in was not graded again"
grep -q "^bob,.*,graded$" "$work/emit/gradebook.csv" || fail "bob's row: $(grep bob "$work/emit/gradebook.csv")"
[ ! -e "$work/emit/bob/notes.md" ] || fail "bob's folder kept the render of his earlier hand-in"
code=0; (batch "$work/emit" --emit gradescope=results.json) > "$work/emit3.txt" 2>&1 || code=$?
[ "$code" = 0 ] || fail "a batch with another --emit exited $code"
[ "$(grep -c "graded already" "$work/emit3.txt")" = 2 ] || fail "not both kept: $(cat "$work/emit3.txt")"
for who in alice bob; do [ -s "$work/emit/$who/results.json" ] || fail "kept $who has no results.json"; done
echo "// changed" >> "$work/class/alice.cu"
code=0; (batch "$work/emit" --emit junit=junit.xml) > "$work/emit4.txt" 2>&1 || code=$?
[ "$code" = 0 ] || fail "alice (notes.md and results.json of two batches) was not graded again: exit $code"
[ -s "$work/emit/alice/junit.xml" ] && [ ! -e "$work/emit/alice/notes.md" ] || fail "alice's folder after her regrade"

# Killed all through, then run again. carol runs on the (fake) GPU: a killed batch leaves her mid-test.
cp "$root/tests/fixtures/hostile/hidden_size_probe.cu" "$work/class/carol.cu"
for mode in one devices; do
  out=$work/$mode
  options=()
  [ "$mode" = devices ] && options=(--devices 0,1)
  for delay in 1 3 6 10 15; do
    (batch "$out" "${options[@]}") > "$work/$mode-$delay.txt" 2>&1 &
    grader=$!
    sleep "$delay"
    kill -KILL "$grader" 2> /dev/null || true
    code=0; wait "$grader" 2> /dev/null || code=$?
    if [ "$code" != 137 ] && [ "$code" != 0 ]; then
      fail "the $mode batch killed after $delay s had exited $code by itself: $(grep -v '^ ' "$work/$mode-$delay.txt" | tail -5)"
    fi
    sleep 1
    if pgrep -f "$out/" > /dev/null; then fail "a grading of the $mode batch killed after $delay s runs on"; fi
  done
  code=0; (batch "$out" "${options[@]}") > "$work/$mode-last.txt" 2>&1 || code=$?
  [ "$code" = 0 ] || fail "the $mode batch, run to its end, exited $code: $(grep -v '^ ' "$work/$mode-last.txt" | tail -5)"
  python3 - "$out" <<'PY' || fail "the $mode batch's reports (above)"
import csv, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "gradebook.csv"))))
assert [r["student_id"] for r in rows] == ["alice", "bob", "carol"], rows
for r in rows:
    assert r["status"] == "graded", r
    assert json.load(open(os.path.join(out, r["student_id"], "grade.json")))["complete"], r
PY
done
echo "ok: every student graded once"
