#!/usr/bin/env bash
# Where a launcher runs, on the fake runtime: writes_fd3.cu writes a line on descriptor 3. `check` runs it in its
# test's child (descriptor 3: the results pipe, where a line that is no result counts for nothing): odd-sizes
# passes. `grade` runs it in the submission's own process (descriptor 3: its socket to the harness): the line ends
# the call, and odd-sizes fails - the sign that grade's launcher never ran where the results are written.
# usage: launchers_apart.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/new_secret.sh"
. "$(dirname "$0")/grade_one.sh"
mkdir -p "$work/init" && new_secret "$work/init/secret.key"
assignment=$root/tests/fixtures/assignments/mapped_overlap_correctness.toml
submission=$root/tests/fixtures/submissions/mapped_pinned/writes_fd3.cu
status() {  # status FOLDER TEST_ID
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(next(t['status'] for t in d['tests'] if t['id']==sys.argv[2]))" \
    "$work/$1/grade.json" "$2"
}
"$cudalab" check "$assignment" --submission "$submission" --out "$work/check" --no-color > "$work/check.txt" 2>&1 ||
  fail "check exited $?: $(tail -5 "$work/check.txt")"
[ "$(status check odd-sizes)" = passed ] || fail "under check, odd-sizes is $(status check odd-sizes), not passed"
grade_one grade "$assignment" "$submission"
[ "$(status grade odd-sizes)" = failed ] || fail "under grade, odd-sizes is $(status grade odd-sizes), not failed"
echo "ok: check ran the launcher in its test's child, grade in the submission's own process"
