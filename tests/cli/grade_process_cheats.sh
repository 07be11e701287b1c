#!/usr/bin/env bash
# The cheats a launcher plays on the process it runs in, graded: since the two-process harness (issue 31, item
# 1: the launcher runs in the submission's own process, the lab, its timing, its checks and its results in
# another), the first two are caught; the third by the sandbox, which hides the vendor library it loads.
#   forged   forged_results.cu: caught - it computes nothing, and the results it meant to rewrite are written by
#            the harness: a correctness test fails
#   patched  patched_timing.cu: neutralised - it patches the timing of its own process, which times nothing: its
#            performance figure is within 15% of the same file's run without its patch (CUDALAB_FIXTURE_UNPATCHED=1)
#   census   census_off.cu: caught - it switches the census off around cuBLAS, which the sandbox of a graded run hides
#            (slots/vendor_libraries.hpp): its dlopen fails, its calls fail, and so does a correctness test
# Needs a GPU (exit 77 without one), or the fake CUDA runtime (CUDALAB_FAKE_GPU=1), where a real lab verifies anything.
# usage: grade_process_cheats.sh CUDALAB SOURCE_ROOT WORK_DIR ASSIGNMENT CASE SUBMISSION
set -euo pipefail
cudalab=$1 root=$2 work=$3 assignment=$4 case=$5 submission=$6
if [ "${CUDALAB_FAKE_GPU:-}" != 1 ]; then nvidia-smi -L > /dev/null 2>&1 || { echo "skipped: no GPU"; exit 77; }; fi
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/new_secret.sh"
mkdir -p "$work/init" && new_secret "$work/init/secret.key"
grade() {  # grade NAME [ENV...]
  local name=$1
  shift
  env "$@" "$cudalab" grade "$assignment" --submission "$submission" --student "$name" --secret "$work/init/secret.key" \
    --out "$work/$name" --no-color > "$work/$name.txt" 2>&1 || fail "grade of $name exited $?: $(tail -5 "$work/$name.txt")"
}
grade cheat
[ "$case" != patched ] || grade unpatched CUDALAB_FIXTURE_UNPATCHED=1
python3 - "$work" "$case" <<'PY' || fail "the cheat did not come out as this test states"
import json, sys
work, case = sys.argv[1], sys.argv[2]
def load(name):
    d = json.load(open(f"{work}/{name}/grade.json"))
    return d, {t["id"]: t for t in d["tests"]}
d, tests = load("cheat")
flags = [f["check"] for f in d["flags"] if f["severity"] == "blocking"]
correctness = {i: t for i, t in tests.items() if t["kind"] == "correctness"}
full = all(t["status"] == "passed" and t["points"] == t["max_points"] for t in correctness.values())
said = {i: (t["status"], t["points"]) for i, t in tests.items()}
if case == "forged":
    ok = not full
elif case == "census":
    ok = not full
else:
    twin, twin_tests = load("unpatched")
    perf = [i for i, t in tests.items() if t["kind"] == "performance"][0]
    cheat_metric = (tests[perf].get("metric") or {}).get("median", 0)
    twin_metric = (twin_tests[perf].get("metric") or {}).get("median", 0)
    print(f"{perf}: {cheat_metric:.1f} patched, {twin_metric:.1f} unpatched")
    ok = twin_metric > 0 and cheat_metric <= 1.15 * twin_metric
print(f"{case}: {'as stated' if ok else 'not as stated'}; flags {flags}; {said}")
sys.exit(0 if ok else 1)
PY
echo "ok: $case came out as stated"
