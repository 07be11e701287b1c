#!/usr/bin/env bash
# A hidden test's inputs reach no file a student reads (red-team review 2026-11-26 F10), on the fake runtime:
# a submission that changes its input and launches denied kernels only at sizes no visible test runs
# (tests/fixtures/hostile/hidden_size_probe.cu) is graded with every render. The staff's grade.json names
# the hidden sizes in its flags (so the probe did its work); feedback.md, feedback.html, Gradescope's and
# PrairieLearn's results.json and JUnit XML name none of them, nor a byte count at one, nor the kernels
# counted there, and say in words what the checks found. Exit 77 where no sandbox can be made.
# usage: grade_hidden_inputs.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# A secret of the test's own, so that mallory's hidden sizes are the same every time (1804, 6035 and
# 9884656: none that a visible test runs).
mkdir -p "$work/init"
(umask 077 && echo c0ffee5eed000000000000000000000000000000000000000000000000000f10 > "$work/init/secret.key")
out=$work/mallory
code=0
"$cudalab" grade "$root/labs/assignments/mapped-overlap/assignment.toml" --student mallory \
  --submission "$root/tests/fixtures/hostile/hidden_size_probe.cu" --secret "$work/init/secret.key" --out "$out" \
  --emit "gradescope=$out/results.json,prairielearn=$out/prairielearn.json,junit=$out/junit.xml,md=$out/feedback.md" \
  > "$work/grade.txt" 2>&1 || code=$?
if [ "$code" = 13 ]; then echo "no sandbox can be made here: $(cat "$work/grade.txt")"; exit 77; fi
[ "$code" = 0 ] || fail "grade exited $code: $(tail -5 "$work/grade.txt")"
# The sizes drawn for mallory that no visible test runs, and what a flag would say of them.
secrets=$(python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
text = open(out + "/tests/hidden-sizes.toml").read()
drawn = [int(v) for v in re.search(r"^n = \[([^]]*)\]", text, re.M).group(1).split(",")]
visible = {1, 3, 15, 17, 1000, 10007, 65537, 100003, 1000003}
hidden = [n for n in drawn if n not in visible and n >= 100]
flags = json.load(open(out + "/grade.json"))["flags"]
staff = " ".join(f["message"] for f in flags)
assert any(str(n) in staff for n in hidden), "the probe raised no flag that names a hidden size: %s" % staff
for n in hidden:
    print(n)
    print(4 * n)  # its bytes, as a copy or an input's size says them
print("probe_kernel")
print("kernels whose name")
PY
) || fail "the staff's grade.json (above)"
for file in feedback.md feedback.html results.json prairielearn.json junit.xml; do
  [ -s "$out/$file" ] || fail "no $file"
  while read -r secret; do
    if grep -qw -- "$secret" "$out/$file"; then
      fail "$file shows '$secret' of a hidden test: $(grep -ow ".\{0,60\}$secret.\{0,40\}" "$out/$file" | head -3)"
    fi
  done <<< "$secrets"
done
for file in feedback.md feedback.html results.json prairielearn.json; do
  grep -q "a hidden test changed its input" "$out/$file" || fail "$file does not say what the input check found"
done
echo "ok: no hidden size reached the student"
