#!/usr/bin/env bash
# A class batch's integrity (red-team review 2026-11-26), without a GPU: submissions that do not build are
# graded in seconds. F4: a forged grade.json is graded again; F19: so is every report of another secret; F8:
# the output is the staff's alone; F15: two hand-ins of one student are left out; F16: a hand-in named like
# a class file is left out; F17: a second batch into a folder in use is refused; F14: an emitted render and
# a killed write's temporary file do not stop a resume. Exit 77 where no sandbox can be made.
# usage: grade_batch_integrity.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work/class"
fail() { echo "FAIL: $*" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
assignment=$root/labs/assignments/reduction-sum/assignment.toml
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init2" > /dev/null
cp "$root/tests/fixtures/submissions/reduction/compile_error.cu" "$work/class/alice.cu"
cp "$root/tests/fixtures/submissions/reduction/compile_error.cu" "$work/class/bob.cu"
batch() { "$cudalab" grade "$assignment" --submissions "$work/class" --out "$work/grades" "$@"; }
code=0; batch --secret "$work/init/secret.key" --emit md=notes.md > "$work/first.txt" 2>&1 || code=$?
[ "$code" = 13 ] && exit 77
[ "$code" = 0 ] || fail "the first batch exited $code: $(tail -3 "$work/first.txt")"
# F8: the staff's alone.
[ "$(stat -c %a "$work/grades")" = 700 ] || fail "the grades folder is $(stat -c %a "$work/grades"), not 700"
[ "$(stat -c %a "$work/grades/alice/grade.json")" = 600 ] || fail "grade.json is not 0600"
[ "$(stat -c %a "$work/grades/gradebook.csv")" = 600 ] || fail "gradebook.csv is not 0600"
# F4: alice's report forged to 100 points is not kept.
python3 - "$work/grades/alice/grade.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["score"] = d["max_score"]; json.dump(d, open(sys.argv[1], "w"))
PY
# F14: a killed write's temporary file beside the emitted render.
touch "$work/grades/bob/.feedback.md.tmp-abc123"
echo "// changed" >> "$work/class/bob.cu"
code=0; batch --secret "$work/init/secret.key" --emit md=notes.md > "$work/second.txt" 2>&1 || code=$?
[ "$code" = 0 ] || fail "the resumed batch exited $code: $(tail -3 "$work/second.txt")"
if grep -q "^alice: graded already" "$work/second.txt"; then fail "a forged report was kept"; fi
grep -q "^alice,[^,]*,0," "$work/grades/gradebook.csv" || fail "alice's forged score reached the gradebook"
if grep -q "^bob: graded already" "$work/second.txt"; then fail "bob's changed hand-in was not graded again"; fi
# F19: another secret: nothing is kept.
code=0; batch --secret "$work/init2/secret.key" --emit md=notes.md > "$work/third.txt" 2>&1 || code=$?
[ "$code" = 0 ] || fail "the batch with another secret exited $code"
if grep -q "graded already" "$work/third.txt"; then fail "a report of another secret was kept"; fi
# F17: a second batch while one holds the folder.
code=0
flock "$work/grades/.lock" -c "'$cudalab' grade '$assignment' --submissions '$work/class' --out '$work/grades' --secret '$work/init/secret.key' > '$work/locked.txt' 2>&1" || code=$?
[ "$code" = 2 ] || fail "a batch into a folder in use exited $code, not 2"
grep -q "another grade is writing into" "$work/locked.txt" || fail "the refusal does not say why"
# F15, F16: two hand-ins of alice, and one named like the gradebook.
mkdir -p "$work/class/alice"
cp "$work/class/alice.cu" "$work/class/alice/reduce_sum.cu"
cp "$work/class/bob.cu" "$work/class/gradebook.csv.cu"
code=0; batch --secret "$work/init/secret.key" --emit md=notes.md > "$work/fourth.txt" 2>&1 || code=$?
[ "$code" = 12 ] || fail "a batch that left hand-ins out exited $code, not 12"
[ "$(grep -c "student 'alice' has 2 hand-ins" "$work/grades/left-out.txt")" = 2 ] || fail "alice's two hand-ins"
grep -q "^gradebook.csv.cu: the name of a file the batch writes" "$work/grades/left-out.txt" || fail "gradebook.csv.cu"
[ -f "$work/grades/gradebook.csv" ] || fail "the gradebook is gone"
echo ok
