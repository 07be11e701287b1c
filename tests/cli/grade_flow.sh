#!/usr/bin/env bash
# `cudalab grade` without a GPU: what it can do on any machine. A staff secret from `assignment init`;
# no secret (exit 2); a submission that does not build (graded, exit 0: score 0, a complete grade.json,
# the renders asked for with --emit: Gradescope JSON with its documented fields, JUnit XML that
# xmllint accepts, PrairieLearn gradable:false); one that includes CUB (refused at build, named, an
# integrity flag); a class batch of those (gradebook.csv, leaderboard, resumed without regrading, a
# changed submission regraded, a half-written grade.json graded again); and a submission that builds
# but finds no GPU (exit 5, its grade.json left incomplete).
# usage: grade_flow.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
assignment=$root/labs/assignments/reduction-sum/assignment.toml
subs=$root/tests/fixtures/submissions/reduction
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
secret=$work/init/secret.key
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# No secret: refused before anything runs.
code=0; "$cudalab" grade "$assignment" --submission "$subs/compile_error.cu" --out "$work/nosecret" \
  > "$work/nosecret.txt" 2>&1 || code=$?
[ "$code" = 2 ] || fail "grade without a secret exited $code, not 2"
grep -q "the staff secret" "$work/nosecret.txt" || fail "grade without a secret does not say why"
[ ! -e "$work/nosecret" ] || fail "grade without a secret made its folder"

# A submission that does not build: graded, 0 points, every render.
"$cudalab" grade "$assignment" --submission "$subs/compile_error.cu" --student alice --secret "$secret" \
  --out "$work/alice" --emit "gradescope=$work/alice-gs.json,junit=$work/alice.xml,prairielearn=$work/alice-pl.json" \
  --emit "md=$work/alice.md" > "$work/alice.txt" || fail "grade of a compile error exited $?"
g=$work/alice/grade.json
[ "$(json "$g" 'd["complete"]')" = True ] || fail "grade.json of a compile error is not complete"
[ "$(json "$g" 'd["command"]')" = grade ] || fail "grade.json does not say grade wrote it"
[ "$(json "$g" 'int(d["score"])')" = 0 ] || fail "a compile error scored $(json "$g" 'd["score"]')"
[ "$(json "$g" 'd["submission"]["build"]["ok"]')" = False ] || fail "grade.json says the build passed"
# The messages name the file as it was handed in (compile_error.cu), not the assignment's reduce_sum.cu.
grep -q "compile_error.cu:[0-9]*: error" "$work/alice.md" || fail "feedback.md names no line of the compile error"
json "$work/alice-gs.json" '[t["name"] for t in d["tests"]]' > /dev/null || fail "no Gradescope tests"
python3 - "$work/alice-gs.json" <<'PY' || fail "Gradescope results.json breaks its documented fields"
import json, sys
d = json.load(open(sys.argv[1]))
top = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
       "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
assert set(d) <= top, set(d) - top
assert isinstance(d["score"], (int, float)) and d["score"] == 0
for t in d["tests"]:
    assert set(t) <= {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format",
                      "tags", "visibility", "extra_data"}, t
    assert t.get("status", "passed") in ("passed", "failed"), t
    assert t.get("visibility", "visible") in ("hidden", "after_due_date", "after_published", "visible"), t
PY
xmllint --noout "$work/alice.xml" || fail "junit.xml is not well-formed XML"
[ "$(json "$work/alice-pl.json" 'd["gradable"]')" = False ] || fail "PrairieLearn output of a compile error is gradable"
if grep -q "$(cat "$secret")" "$work"/alice* -r; then fail "an output holds the staff secret"; fi
[ ! -e "$work/alice/run" ] || fail "a submission that does not build started a GPU run"

# CUB is denied: refused at build, the header named, flagged.
"$cudalab" grade "$assignment" --submission "$subs/uses_cub.cu" --secret "$secret" --out "$work/cub" > "$work/cub.txt" \
  || fail "grade of uses_cub.cu exited $?"
grep -q "denied: #include <cub/cub.cuh>" "$work/cub.txt" || fail "the denied header is not named"
json "$work/cub/grade.json" '[f["check"] for f in d["flags"]]' | grep -q build_policy || fail "no build_policy flag"
json "$work/cub/grade.json" '[t["status"] for t in d["tests"] if t["id"] == "integrity-build"]' | grep -q failed \
  || fail "the build policy test did not fail"

# A class: two broken submissions, one in a folder; a name that is no student is left out.
mkdir -p "$work/class/carol" "$work/class/.hidden"
cp "$subs/compile_error.cu" "$work/class/alice.cu"
cp "$subs/uses_cub.cu" "$work/class/bob.cu"
cp "$subs/compile_error.cu" "$work/class/carol/reduce_sum.cu"
cp "$subs/compile_error.cu" "$work/class/'; rm -rf.cu"
# A batch that leaves a hand-in out says so: in left-out.txt, and in its exit code (12).
code=0; "$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/grades" \
  --emit gradescope=results.json > "$work/class.txt" 2>&1 || code=$?
[ "$code" = 12 ] || fail "the batch that left a name out exited $code, not 12: $(tail -3 "$work/class.txt")"
grep -q "^'; rm -rf.cu: not a student's name" "$work/grades/left-out.txt" || fail "left-out.txt does not name it"
grep -q "1 left out" "$work/class.txt" || fail "the summary does not count the left-out name"
[ "$(wc -l < "$work/grades/gradebook.csv")" = 4 ] || fail "gradebook.csv has $(wc -l < "$work/grades/gradebook.csv") lines, not 4"
head -1 "$work/grades/gradebook.csv" | grep -q "^student_id,pseudonym,score,max_score,odd-sizes,.*,flags,submission_sha256,graded_at,gpu,status$" \
  || fail "gradebook.csv's header: $(head -1 "$work/grades/gradebook.csv")"
grep -q "^bob,[a-z]*-[a-z]*-[0-9a-f]\{8\},0,100,.*build_policy,.*,,graded$" "$work/grades/gradebook.csv" || fail "bob's row"
[ -s "$work/grades/alice/results.json" ] || fail "the batch wrote no Gradescope results.json for alice"
grep -q "No submission passes every correctness test" "$work/grades/leaderboard.md" || fail "leaderboard.md"
grep -q "not a student's name" "$work/class.txt" || fail "a bad name was not refused"
# Resumed: nothing graded again; a changed submission and a half-written report are.
"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/grades" > "$work/again.txt" 2>&1 || true
[ "$(grep -c "graded already" "$work/again.txt")" = 3 ] || fail "the resumed batch graded again: $(cat "$work/again.txt")"
echo "// changed" >> "$work/class/alice.cu"
head -c 100 "$work/grades/bob/grade.json" > "$work/half" && mv "$work/half" "$work/grades/bob/grade.json"
"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/grades" > "$work/third.txt" 2>&1 || true
[ "$(grep -c "graded already" "$work/third.txt")" = 1 ] || fail "alice (changed) or bob (half-written) were not graded again"
[ "$(wc -l < "$work/grades/gradebook.csv")" = 4 ] || fail "gradebook.csv after the resume"

# The same student's hidden tests are drawn the same way every time, another student's differently.
# (Drawn before the build fails? No: drawn when the tests run, so this needs a GPU; see the gpu tests.)

# A submission that builds, on a machine with no GPU: exit 5, the report left incomplete.
code=0; "$cudalab" grade "$assignment" --submission "$subs/visible_only.cu" --secret "$secret" --out "$work/nogpu" \
  > "$work/nogpu.txt" 2>&1 || code=$?
if [ "$code" = 0 ]; then echo "a GPU is here: the no-GPU case is not checked"; exit 0; fi
[ "$code" = 5 ] || fail "grade with no GPU exited $code, not 5: $(tail -3 "$work/nogpu.txt")"
[ "$(json "$work/nogpu/grade.json" 'd["complete"]')" = False ] || fail "an interrupted grading says complete"
echo "ok"
