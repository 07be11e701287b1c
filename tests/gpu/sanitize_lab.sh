#!/usr/bin/env bash
# Runs a lab file once under compute-sanitizer (cudalab run --sanitize=TOOL, verify only, small size)
# and checks that the tool found nothing: exit code 0 and its clean summary line.
# usage: sanitize_lab.sh TOOL CUDALAB CONFIG LAB_FILE OUT_DIR [cudalab options: --set k=v ...]
# Exits 77 (skip) without a GPU or without compute-sanitizer.
set -u
tool=$1 cudalab=$2 config=$3 lab=$4 out=$5
shift 5
if ! nvidia-smi -L >/dev/null 2>&1; then echo "skipped: no GPU"; exit 77; fi
# --force: ctest may run it again into the same folder
output=$("$cudalab" run --sanitize="$tool" --config "$config" --format csv --force --out "$out" "$lab" "$@" 2>&1)
code=$?
echo "$output"
if [ "$code" = 2 ] && grep -q "needs NVIDIA compute-sanitizer" <<<"$output"; then echo "skipped: no compute-sanitizer"; exit 77; fi
case $tool in
  memcheck | initcheck | synccheck) clean='ERROR SUMMARY: 0 errors' ;;
  racecheck) clean='RACECHECK SUMMARY: 0 hazards displayed \(0 errors, 0 warnings\)' ;;
esac
fail=0
[ "$code" = 0 ] || { echo "FAIL: exit code $code, expected 0" >&2; fail=1; }
grep -Eq -- "$clean" <<<"$output" || { echo "FAIL: no clean summary line /$clean/" >&2; fail=1; }
[ $fail = 0 ] && echo "ok: $tool clean on $(basename "$lab")"
exit $fail
