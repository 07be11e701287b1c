#!/usr/bin/env bash
# The two-process harness's timing, on the fake runtime with a cost for each switch between the processes
# (FAKECUDA_SWITCH_MS, as the H100's context switches): `grade` times the mapped-overlap reference's launcher in
# its own process, `check` in its test's child. The handshake timed alone before each sample is taken off, so
# both give the same time per launch, and grade's results say what was taken off (two switches). A launcher that
# enqueues nothing is timed too (its repetitions end).
# usage: launchers_apart_timing.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/new_secret.sh"
. "$(dirname "$0")/grade_one.sh"
mkdir -p "$work/init" && new_secret "$work/init/secret.key"
export FAKECUDA_SWITCH_MS=0.25
assignment=$root/labs/assignments/mapped-overlap/assignment.toml
submission=$root/plugins/mapped_pinned/slots/add_overlapped.cu
"$cudalab" check "$assignment" --submission "$submission" --out "$work/check" --no-color > "$work/check.txt" 2>&1 ||
  fail "check exited $?: $(tail -5 "$work/check.txt")"
grade_one grade "$assignment" "$submission"
python3 - "$work" <<'PY' || fail "the times differ (above)"
import glob, json, sys
work = sys.argv[1]
def student(folder):
    rows = []
    for f in sorted(glob.glob(f"{work}/{folder}/**/results.json", recursive=True)):
        for r in json.load(open(f))["results"]:
            if r["variant"].startswith("student:") and (r.get("timing") or {}).get("timed"):
                rows.append(r["timing"])
    return rows
check, grade = student("check"), student("grade")
if not check or not grade:
    sys.exit(f"no timed student result: check {len(check)}, grade {len(grade)}")
c = check[0]["median_ms"]
for t in grade:
    print(f"check {c:.4f} ms, grade {t['median_ms']:.4f} ms, handshake {t.get('handshake_ms')}")
    if abs(t["median_ms"] - c) > 0.01 * c:
        sys.exit("grade's time is not check's")
    if abs(t.get("handshake_ms", 0) - 0.5) > 0.01:
        sys.exit("the handshake taken off is not two switches of 0.25 ms")
if "handshake_ms" in check[0]:
    sys.exit("check, with the launcher in its own child, took a handshake off")
PY
# A launcher that enqueues nothing is timed at about 0 once the handshake is off: its repetitions still end.
grade_one nothing "$assignment" "$root/tests/fixtures/submissions/mapped_pinned/enqueues_nothing.cu"
overlap=$(python3 -c "import json,sys; print(next(t['status'] for t in json.load(open(sys.argv[1]))['tests'] if t['id']=='overlap'))" \
  "$work/nothing/grade.json")
[ "$overlap" != timed_out ] || fail "the timing of a launcher that enqueues nothing ran to the unit's time limit"
echo "ok: grade times a launcher in its own process as check does in-process, and one that does nothing ends"
