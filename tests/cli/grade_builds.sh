#!/usr/bin/env bash
# `cudalab grade`'s build of each submission, in its sandbox, without a GPU (none is shown to it: grade then
# stops after the build, exit 5): each must build (EXPECT ok) or be refused by the header policy (EXPECT denied). The sandbox sees the whole toolkit:
# an allowed header built on a denied one (<cooperative_groups.h> on libcu++) builds. Where no sandbox can
# be made, grade refuses (exit 13) and so does this test (77: skipped).
# usage: grade_builds.sh CUDALAB SOURCE_ROOT WORK_DIR ASSIGNMENT EXPECT SUBMISSION...
set -euo pipefail
cudalab=$1 root=$2 work=$3 assignment=$4 expect=$5
shift 5
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
. "$(dirname "$0")/new_secret.sh"
mkdir -p "$work/init" && new_secret "$work/init/secret.key"
for submission in "$@"; do
  name=$(basename "$submission" .cu)
  code=0
  CUDA_VISIBLE_DEVICES= "$cudalab" grade "$assignment" --submission "$submission" --student "$name" \
    --secret "$work/init/secret.key" --out "$work/$name" > "$work/$name.txt" 2>&1 || code=$?
  if [ "$code" = 13 ]; then echo "no sandbox can be made here: $(tail -3 "$work/$name.txt")"; exit 77; fi
  [ "$(json "$work/$name/grade.json" 'd["sandbox"]')" = True ] || fail "$name: not built in the sandbox"
  case "$expect" in
    ok) grep -q "^build: ok" "$work/$name.txt" ||
      fail "$name did not build: $(grep -E 'error|denied|FAILED' "$work/$name.txt" | head -5)" ;;
    denied) grep -q "^build: FAILED" "$work/$name.txt" && grep -q ": denied: " "$work/$name.txt" ||
      fail "$name was not refused by the header policy: $(tail -5 "$work/$name.txt")" ;;
    *) fail "EXPECT is ok or denied, not $expect" ;;
  esac
  echo "$name: $expect"
done
