#!/usr/bin/env bash
# One isolated run (a 15 s watchdog: long enough for a good child on a loaded machine) over a good lab file and the fault lab's crashing, hanging and wrong lab files:
# each fault must be reported for what it was, and every good result must be intact.
# usage: isolate_faults.sh CUDALAB TEST_PLUGIN_DIR FAULTY_PLUGIN_DIR OUT_DIR
# Exits 77 (skip) without a GPU, unless CUDALAB_FAKE_GPU=1 (the fake CUDA runtime stands in for one).
set -u
cudalab=$1 plugins=$2 faulty=$3 out=$4
fixtures=$(cd "$(dirname "$0")/../fixtures/cli" && pwd)
if [ "${CUDALAB_FAKE_GPU:-0}" != 1 ] && ! nvidia-smi -L >/dev/null 2>&1; then echo "skipped: no GPU"; exit 77; fi
rm -rf "$out"
"$cudalab" run --isolate --timeout 15 --plugin-path "$plugins" --plugin-path "$faulty" --out "$out" \
  "$fixtures/testlab.toml" "$fixtures/faulty_crash.toml" "$fixtures/faulty_hang.toml" "$fixtures/faulty_wrong.toml"
code=$?
echo "exit code $code"
fail=0
check() {  # check DESCRIPTION EXPECTED_COUNT EXTENDED_REGEX: the number of result lines matching
  local n
  n=$(grep -Ec -- "$3" "$out/results.jsonl")
  if [ "$n" = "$2" ]; then echo "ok: $1 ($n)"; else echo "FAIL: $1: $n line(s) match /$3/, expected $2" >&2; fail=1; fi
}
# The crash (a sticky CUDA error) makes the run's exit code 7.
[ "$code" = 7 ] || { echo "FAIL: exit code $code, expected 7" >&2; fail=1; }
check "every good result of the good lab file" 6 '"plugin":"testlab",.*"status":"ok"'
check "the fault lab's correct copy in each file" 3 '"plugin":"faultlab",.*"variant":"copy",.*"status":"ok"'
check "the out-of-bounds write is an illegal address" 1 '"variant":"oob_write",.*"status":"error","error":"[^"]*cudaErrorIllegalAddress'
check "the endless kernel timed out" 1 '"variant":"spin_forever",.*"status":"error","error":"the child process running this lab file timed out after 15 s'
check "the wrong result failed verification" 1 '"variant":"wrong_value",.*"status":"verify_failed"'
check "nothing else" 12 '"status":'
check "no context line: every line a result" 0 '^\{"context":'
[ -s "$out/context.json" ] || { echo "FAIL: no context.json" >&2; fail=1; }
exit $fail
