#!/usr/bin/env bash
# Fair timing (issue 31), on the fake runtime: what a graded performance test's timing does against three tricks.
# - Work only when checked: the fault lab's when_checked variant copies only when its output holds the poison. With
#   [measure] poison_each_launch every timed launch is timed copying, as long as the correct copy; without it the
#   timed launches do nothing and take next to no time (the trick works: the key is what stops it).
# - Changed device state: the persisting_l2 variant leaves a persisting-L2 set-aside and window set after its
#   verified run. With l2_flush the timing finds them, counts the samples that did (timing.persisting_l2_found, with
#   what was found in words) and resets them: found once, not in every sample. The correct copy finds nothing. On a
#   device without persisting L2 (FAKECUDA_PERSISTING_L2=0) the cold start still times the copy.
# - Slowed baseline: run isolated by variant, the child that runs the baseline does not load the submission (whose
#   library prints a line as it is loaded): one process loads it, not two.
# Each is a scenario of its own (CTest fake.cli_grade_cheat_<scenario>).
# usage: fair_timing.sh SCENARIO CUDALAB SOURCE_ROOT FAKE_LABS_DIR WORK_DIR
#   SCENARIO: work_only_when_checked, changed_device_state or slowed_baseline
set -euo pipefail
scenario=$1 cudalab=$2 root=$3 fake_labs=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
fixtures=$root/tests/fixtures/cli
run() {  # run NAME LAB_FILE ARGS... (exit 0 expected)
  local name=$1 lab=$2
  shift 2
  "$cudalab" run "$lab" --plugin-path "$fake_labs" --format json --force --out "$work/$name" "$@" > "$work/$name.txt" 2>&1 ||
    fail "run $name exited $?: $(tail -5 "$work/$name.txt")"
}
timing() {  # timing NAME VARIANT EXPRESSION: a Python expression over t, the variant's timing
  python3 - "$work/$1/results.json" "$2" "$3" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
r = next(r for r in doc["results"] if r["variant"] == sys.argv[2])
t = r["timing"]
copy = next(c for c in doc["results"] if c["variant"] == "copy")["timing"]
assert r["status"] == "ok", r
print(eval(sys.argv[3]))
PY
}

case $scenario in
work_only_when_checked)
run checked "$fixtures/faulty_when_checked.toml"
[ "$(timing checked when_checked 't["median_ms"] >= 0.9 * copy["median_ms"]')" = True ] ||
  fail "poisoned before every timed launch, when_checked was not timed copying: $(timing checked when_checked t)"
run unchecked "$fixtures/faulty_when_checked.toml" --set measure.poison_each_launch=false
[ "$(timing unchecked when_checked 't["median_ms"] < 0.1 * copy["median_ms"]')" = True ] ||
  fail "without poison_each_launch when_checked should skip its timed work: $(timing unchecked when_checked t)"
;;
changed_device_state)
run persisting "$fixtures/faulty_persisting_l2.toml"
[ "$(timing persisting persisting_l2 't.get("persisting_l2_found")')" = 1 ] ||
  fail "the persisting-L2 state was not found once and reset: $(timing persisting persisting_l2 t)"
timing persisting persisting_l2 't["persisting_l2_note"]' | grep -q "a persisting-L2 set-aside of [0-9]* bytes and an access policy window of [0-9]* bytes on the timed stream" ||
  fail "the note does not say what was found: $(timing persisting persisting_l2 t)"
[ "$(timing persisting copy '"persisting_l2_found" in copy')" = False ] || fail "the correct copy was said to leave state"
FAKECUDA_PERSISTING_L2=0 run no_persisting "$fixtures/faulty_persisting_l2.toml" --variant copy
[ "$(timing no_persisting copy 't["timed"] and t["l2_flushed"]')" = True ] ||
  fail "without persisting L2 the cold start did not time the copy"
;;
slowed_baseline)
# On the fake the reduction lab's setup fails (CUB asks what the fake does not answer): the run ends with exit 7,
# after each child has loaded what it loads.
code=0
"$cudalab" run "$fixtures/reduction_student.toml" --isolate=variant --force --out "$work/alone" \
  --submission "reduce_sum=$root/tests/fixtures/submissions/reduction/slow_baseline.cu" > "$work/alone.txt" 2>&1 || code=$?
[ "$code" = 7 ] || fail "the isolated run exited $code: $(tail -5 "$work/alone.txt")"
loaded=$(grep -c "slow_baseline: loaded" "$work/alone.txt" || true)
[ "$loaded" = 1 ] || fail "the submission was loaded by $loaded processes, not by the student's alone: $(cat "$work/alone.txt")"
;;
*) fail "no scenario $scenario" ;;
esac
echo "ok: $scenario"
