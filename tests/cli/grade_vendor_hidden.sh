#!/usr/bin/env bash
# The toolkit's vendor libraries hidden from a graded run (slots/vendor_libraries.hpp), on the fake runtime:
# loads_cublas.cu fails its calls when dlopen("libcublas.so.13") fails. Graded with --no-sandbox it passes (the
# library is there to load); graded in the sandbox its correctness tests do not. Skips (77) where the machine has
# no cuBLAS or no sandbox can be made.
# usage: grade_vendor_hidden.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/new_secret.sh"
mkdir -p "$work/init" && new_secret "$work/init/secret.key"
grade() {  # grade NAME [OPTIONS...]: exit code
  local name=$1 code=0
  shift
  "$cudalab" grade "$root/tests/fixtures/assignments/mapped_overlap_correctness.toml" \
    --submission "$root/tests/fixtures/submissions/mapped_pinned/loads_cublas.cu" --student "$name" \
    --secret "$work/init/secret.key" --out "$work/$name" --no-color "$@" > "$work/$name.txt" 2>&1 || code=$?
  echo "$code"
}
status() {  # status NAME TEST_ID
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(next(t['status'] for t in d['tests'] if t['id']==sys.argv[2]))" \
    "$work/$1/grade.json" "$2"
}
code=$(grade open --no-sandbox)
[ "$code" = 0 ] || fail "grade --no-sandbox exited $code: $(tail -5 "$work/open.txt")"
[ "$(status open odd-sizes)" = passed ] || { echo "skipped: no cuBLAS to load here ($(status open odd-sizes))"; exit 77; }
code=$(grade boxed)
[ "$code" != 13 ] || { echo "skipped: no sandbox can be made here"; exit 77; }
[ "$code" = 0 ] || fail "grade exited $code: $(tail -5 "$work/boxed.txt")"
boxed=$(status boxed odd-sizes)
[ "$boxed" != passed ] || fail "cuBLAS was loaded inside the sandbox: odd-sizes passed"
echo "ok: cuBLAS loads without the sandbox, not in it (odd-sizes $boxed)"
