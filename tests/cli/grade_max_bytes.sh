#!/usr/bin/env bash
# max_bytes holds in a class batch as it does for one submission (red-team review 2026-11-26 F18): a hand-in
# over the assignment's limit (100 bytes: tests/fixtures/assignments/tiny_limit.toml) is never handed to a
# compiler; it is graded 0, its report complete and saying why, beside a classmate within the limit. Exit 77
# where no sandbox can be made.
# usage: grade_max_bytes.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work/class"
fail() { echo "FAIL: $*" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
"$cudalab" assignment init --lab "$root/labs/alignment.toml" --slot vector_copy --out "$work/init" > /dev/null
cp "$root/plugins/alignment/slots/vector_copy.cu" "$work/class/alice.cu"  # the reference: far over 100 bytes
printf 'broken\n' > "$work/class/bob.cu"                                    # within it, and no kernel
[ "$(stat -c %s "$work/class/alice.cu")" -gt 100 ] || fail "alice's hand-in is not over the limit"
code=0
"$cudalab" grade "$root/tests/fixtures/assignments/tiny_limit.toml" --submissions "$work/class" \
  --secret "$work/init/secret.key" --out "$work/grades" > "$work/batch.txt" 2>&1 || code=$?
[ "$code" = 13 ] && exit 77
[ "$code" = 0 ] || fail "the batch exited $code: $(tail -5 "$work/batch.txt")"
g=$work/grades/alice/grade.json
[ "$(json "$g" 'd["complete"]')" = True ] || fail "alice's report is not complete"
[ "$(json "$g" 'd["score"]')" = 0.0 ] || fail "alice, over max_bytes, scored $(json "$g" 'd["score"]')"
[ "$(json "$g" 'd["submission"]["build"]["command"]')" = "not handed to a compiler" ] || fail "alice's hand-in was built"
json "$g" 'd["submission"]["build"]["diagnostics"][0]["message"]' |
  grep -q "the submission has [0-9]* bytes, more than the assignment's max_bytes (100)" || fail "alice's report does not say why"
[ ! -e "$work/grades/alice/build" ] || fail "alice's hand-in reached a compiler"
grep -q "more than the assignment's max_bytes (100)" "$work/batch.txt" || fail "the batch does not say it"
grep -q "^alice,[^,]*,0,10," "$work/grades/gradebook.csv" || fail "alice's gradebook row: $(cat "$work/grades/gradebook.csv")"
[ "$(json "$work/grades/bob/grade.json" 'd["submission"]["build"]["command"]')" != "not handed to a compiler" ] ||
  fail "bob, within the limit, was not built"
echo ok
