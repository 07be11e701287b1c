#!/usr/bin/env bash
# Without compute-sanitizer on the grader, grade of an assignment with sanitizer tests stops before grading
# anything (red-team review 2026-11-26 F20): exit 5, as without a GPU, saying what is missing and every
# folder it was looked for in - one submission and a class alike; nothing is written. (Before, every
# student lost the sanitizer points, `skipped`, exit 0.) Skips (77) where /usr/local/cuda/bin, which is
# always looked in, holds one.
# usage: grade_no_sanitizer.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work/class" "$work/tools"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x /usr/local/cuda/bin/compute-sanitizer ] && { echo "compute-sanitizer is in /usr/local/cuda/bin"; exit 77; }
assignment=$root/labs/assignments/reduction-sum/assignment.toml
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
cp "$root/tests/fixtures/submissions/reduction/compile_error.cu" "$work/class/alice.cu"
# A PATH of a folder of its own and the system's, no CUDA_HOME: no compute-sanitizer anywhere grade looks.
grade() { env -u CUDA_HOME PATH="$work/tools:/usr/bin:/bin" "$cudalab" grade "$assignment" --secret "$work/init/secret.key" "$@"; }
for how in one class; do
  code=0
  if [ "$how" = one ]; then
    grade --submission "$work/class/alice.cu" --out "$work/$how" > "$work/$how.txt" 2>&1 || code=$?
  else
    grade --submissions "$work/class" --out "$work/$how" > "$work/$how.txt" 2>&1 || code=$?
  fi
  [ "$code" = 5 ] || fail "grade ($how) without compute-sanitizer exited $code, not 5: $(cat "$work/$how.txt")"
  grep -q "the assignment has sanitizer tests (memcheck, racecheck), and compute-sanitizer (CUDA toolkit) was not found" \
    "$work/$how.txt" || fail "grade ($how) does not say what is missing: $(cat "$work/$how.txt")"
  grep -q "looked in $work/tools, /usr/bin, /bin, /usr/local/cuda/bin" "$work/$how.txt" ||
    fail "grade ($how) does not say where it looked: $(cat "$work/$how.txt")"
  [ ! -e "$work/$how/alice" ] && [ ! -e "$work/$how/grade.json" ] || fail "grade ($how) graded something"
done
echo ok
