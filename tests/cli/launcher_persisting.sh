#!/usr/bin/env bash
# Changed device state through a launcher in the submission's own process, on the fake runtime: persisting_l2.cu
# sets a persisting-L2 set-aside and a window on its stream at its first call. The harness's cold L2 resets its own
# process's state only; the submission's process says what it found at each call, and grade counts it into the
# timing as a cold cache does: the performance test has the warning flag persisting_l2. The reference has none.
# usage: launcher_persisting.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/new_secret.sh"
. "$(dirname "$0")/grade_one.sh"
mkdir -p "$work/init" && new_secret "$work/init/secret.key"
assignment=$root/labs/assignments/mapped-overlap/assignment.toml
flags() { python3 -c "import json,sys; print(' '.join(f['check'] for f in json.load(open(sys.argv[1])).get('flags', [])))" "$work/$1/grade.json"; }
grade_one ref "$assignment" "$root/plugins/mapped_pinned/slots/add_overlapped.cu"
grade_one persisting "$assignment" "$root/tests/fixtures/submissions/mapped_pinned/persisting_l2.cu"
if flags ref | grep -qw persisting_l2; then fail "the reference was said to leave persisting-L2 state"; fi
flags persisting | grep -qw persisting_l2 || fail "persisting_l2.cu raised no persisting_l2 flag: $(flags persisting)"
grep -q "persisting-L2 set-aside of [0-9]* bytes" "$work/persisting/grade.json" || fail "the flag does not say what was found"
echo "ok: the state a launcher's own process keeps is found there and flagged"
