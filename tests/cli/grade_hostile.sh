#!/usr/bin/env bash
# grade's trust boundary, on the fake runtime (no GPU): a hostile launcher, graded in a class beside an honest
# classmate, tries to read the staff secret, the classmate's hand-in and the staff reference, to plant a file
# among the grades, to leave a process behind, to write to the grader's terminal and to read the grader's
# environment; a hostile kernel includes the secret, the classmate's file and the reference at compile time.
# All of it fails, the secret appears in no output, and grade.json says the sandbox held. Where no sandbox
# can be made, grade refuses (exit 13) and so does this test (77: skipped).
# usage: grade_hostile.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

"$cudalab" assignment init --lab "$root/labs/mapped_pinned.toml" --slot add_overlapped --out "$work/init" > /dev/null
secret=$work/init/secret.key
marker=cudalab-hostile-$$-$RANDOM
reference=$root/plugins/mapped_pinned/slots/add_overlapped.cu
mkdir -p "$work/class"
# alice's hand-in carries a line no one else's does: it must reach no other student's report.
{ echo "// alice's own words: $marker-alice"; cat "$root/tests/fixtures/submissions/mapped_pinned/compile_error.cu"; } \
  > "$work/class/alice.cu"
fill() {
  sed -e "s|@SECRET@|$secret|g" -e "s|@CLASSMATE@|$work/class/alice.cu|g" -e "s|@REFERENCE@|$reference|g" \
    -e "s|@GRADES@|$work/grades|g" -e "s|@MARKER@|$marker|g" "$1"
}
fill "$root/tests/fixtures/hostile/launcher.cu.in" > "$work/class/mallory.cu"

# The grader's terminal is a pseudo-terminal (script(1)) whose every byte lands in tty.log.
grade_class=("$cudalab" grade "$root/labs/assignments/mapped-overlap/assignment.toml" --submissions "$work/class"
             --secret "$secret" --out "$work/grades")
code=0
if command -v script > /dev/null; then
  GRADER_TOKEN=$marker-token script -qec "$(printf '%q ' "${grade_class[@]}")" "$work/tty.log" > "$work/class.txt" \
    2>&1 || code=$?
else
  GRADER_TOKEN=$marker-token "${grade_class[@]}" > "$work/class.txt" 2>&1 || code=$?
fi
if [ "$code" = 13 ]; then echo "no sandbox can be made here: $(cat "$work/class.txt")"; exit 77; fi
[ "$code" = 0 ] || fail "the class batch exited $code: $(tail -5 "$work/class.txt")"

# The hostile code ran (else nothing below would mean anything), and got nothing.
grep -rq "hostile: could not read the secret" "$work/class.txt" "$work/grades" || fail "the hostile launcher never ran"
outputs=("$work/class.txt" "$work/grades")
[ -e "$work/tty.log" ] && outputs+=("$work/tty.log")
if grep -rqI "hostile: the secret\|hostile: the classmate\|hostile: the staff reference\|hostile: planted\|hostile: wrote to the terminal\|hostile: the grader's token" "${outputs[@]}"; then
  fail "an attack got through: $(grep -rhI "hostile: [^c]" "${outputs[@]}" | sort -u | head -5)"
fi
[ -z "$(find "$work" -name 'planted-by-mallory.json')" ] || fail "the grades folder took a planted file"
secret_text=$(cat "$secret")
if grep -rqF "$secret_text" "$work/grades" "$work/class.txt"; then fail "an output holds the staff secret"; fi
if grep -rqF "$marker-alice" "$work/grades/mallory"; then fail "mallory's report holds alice's hand-in"; fi
if grep -rqF "$marker-token" "$work/grades" "$work/class.txt"; then fail "an output holds the grader's token"; fi
if [ -e "$work/tty.log" ] && grep -qF "$marker-on-the-terminal" "$work/tty.log"; then
  fail "the submission wrote to the grader's terminal"
fi
sleep 0.5
if pgrep -f "$marker-left-behind" > /dev/null; then
  pkill -f "$marker-left-behind" || true
  fail "a process of the submission outlived grade"
fi
for who in alice mallory; do
  [ "$(json "$work/grades/$who/grade.json" 'd["sandbox"]')" = True ] || fail "$who's grade.json says no sandbox"
done

# A kernel that includes the secret, the classmate's file and the staff reference: nothing of them is
# compiled, and nothing of them is quoted back.
fill "$root/tests/fixtures/hostile/kernel_includes.cu.in" > "$work/eve.cu"
code=0
"$cudalab" grade "$root/labs/assignments/alignment-vector-copy/assignment.toml" --submission "$work/eve.cu" \
  --student eve --secret "$secret" --out "$work/eve" > "$work/eve.txt" 2>&1 || code=$?
[ "$code" = 0 ] || fail "grade of the hostile kernel exited $code: $(tail -5 "$work/eve.txt")"
[ "$(json "$work/eve/grade.json" 'd["submission"]["build"]["ok"]')" = False ] || fail "the hostile kernel built"
if grep -rqF "$secret_text" "$work/eve" "$work/eve.txt"; then fail "the hostile kernel's report quotes the secret"; fi
if grep -rqF "$marker-alice" "$work/eve" "$work/eve.txt"; then fail "the hostile kernel's report quotes alice"; fi
reference_line=$(grep -m1 "__global__\|__shfl" "$reference")
if grep -rqF "$reference_line" "$work/eve" "$work/eve.txt"; then fail "the hostile kernel's report quotes the reference"; fi
grep -q "cannot open source file\|could not open source file" "$work/eve.txt" ||
  fail "the build does not say the files could not be opened: $(head -5 "$work/eve.txt")"
echo "ok: every attack failed"
