#!/usr/bin/env bash
# The gaps that wait for the two-process harness (issue 31, item 1), stated as tests: `cudalab grade` of a
# cheating fixture that runs in the process that times, checks and reports it, asserting what happens today -
# the cheat stands. The day the harness lands, the assertion fails and the test is turned round (caught).
#   forged   forged_results.cu: correctness tests it fails pass on results it rewrote (every correctness
#            test passed with all its points)
#   census   census_off.cu: cuBLAS hidden from the census (every correctness test passed, no census flag,
#            the census integrity test passed)
#   patched  patched_timing.cu: its performance figure is graded at well above that of the same file run
#            without its patch (CUDALAB_FIXTURE_UNPATCHED=1), with no flag
# Needs a GPU (exit 77 without one) unless it runs on the fake CUDA runtime (CUDALAB_FAKE_GPU=1: forged only).
# usage: grade_not_caught_yet.sh CUDALAB SOURCE_ROOT WORK_DIR ASSIGNMENT CASE SUBMISSION
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
python3 - "$work" "$case" <<'PY' || fail "the cheat did not stand as it does today (has the harness landed? then turn this test round)"
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
    ok = full
elif case == "census":
    ok = full and not any(f.startswith("census") for f in flags) and tests["integrity-census"]["status"] == "passed"
else:
    twin, twin_tests = load("unpatched")
    perf = [i for i, t in tests.items() if t["kind"] == "performance"][0]
    cheat_metric = (tests[perf].get("metric") or {}).get("median", 0)
    twin_metric = (twin_tests[perf].get("metric") or {}).get("median", 0)
    print(f"{perf}: {cheat_metric:.1f} patched, {twin_metric:.1f} unpatched")
    ok = not flags and twin_metric > 0 and cheat_metric >= 1.5 * twin_metric
print(f"{case}: {'stands' if ok else 'caught'}; flags {flags}; {said}")
sys.exit(0 if ok else 1)
PY
echo "ok: $case is not caught yet"
