#!/usr/bin/env bash
# Hand-ins a batch leaves out are counted (red-team review 2026-11-26 F30): names that are no student's
# (non-ASCII, a space, an escape sequence) are said, counted in the summary ("3 left out"), listed in
# left-out.txt - escaped, never obeyed - and the batch exits 12; an id with leading zeros stays text in
# the gradebook ('00123), so a spreadsheet does not make it 123.
# usage: grade_left_out.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work/class"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
broken=$root/tests/fixtures/submissions/reduction/compile_error.cu
for name in bob 00123 "josé" "mary ann" $'\e[31mred'; do cp "$broken" "$work/class/$name.cu"; done
code=0
"$cudalab" grade "$root/labs/assignments/reduction-sum/assignment.toml" --submissions "$work/class" \
  --secret "$work/init/secret.key" --out "$work/grades" > "$work/batch.txt" 2>&1 || code=$?
[ "$code" = 13 ] && exit 77
[ "$code" = 12 ] || fail "a batch that left hand-ins out exited $code, not 12: $(tail -5 "$work/batch.txt")"
grep -q "^2 student(s) graded (0 kept from an earlier batch, 3 left out: see left-out.txt)" "$work/batch.txt" ||
  fail "the summary does not count them: $(tail -3 "$work/batch.txt")"
left=$work/grades/left-out.txt
[ "$(wc -l < "$left")" = 3 ] || fail "left-out.txt: $(cat -v "$left")"
grep -q "^josé.cu: not a student's name" "$left" || fail "josé is not in left-out.txt"
grep -q "^mary ann.cu: not a student's name" "$left" || fail "mary ann is not in left-out.txt"
grep -qF '\x1b[31mred.cu: not a student' "$left" || fail "the escape sequence's name is not in left-out.txt, escaped"
if grep -q $'\e' "$left" "$work/batch.txt"; then fail "a name's escape sequence reached a file or the console raw"; fi
grep -q "^'00123,[a-z]*-[a-z]*-[0-9a-f]*,0,100," "$work/grades/gradebook.csv" ||
  fail "00123 is not kept as text: $(cat "$work/grades/gradebook.csv")"
grep -q "^bob,[a-z]*-[a-z]*-[0-9a-f]*,0,100," "$work/grades/gradebook.csv" || fail "bob's row"
[ -f "$work/grades/00123/grade.json" ] || fail "00123 was not graded"
echo ok
