#!/usr/bin/env bash
# The staff and student commands on one example assignment, with no GPU: validate, `assignment init`
# for its lab and slot (the template validates), `assignment starter` (the kit's public copy validates
# and holds no hidden test), `assignment init`'s staff secret (mode 0600, never in a kit made from that
# assignment), and `check --no-gpu` of the starter (it compiles) and of the slot's reference from the
# plugin's source (it compiles too), each leaving feedback.md with the score table and grade.json.
# usage: assignment_flow.sh CUDALAB ASSIGNMENT.toml SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 assignment=$2 root=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
field() { grep -E "^$1 *=" "$2" | head -1 | cut -d'"' -f2; }

"$cudalab" validate "$assignment" | grep -q ": ok" || fail "validate $assignment"
lab=$(dirname "$assignment")/$(field lab "$assignment")
slot=$(field slot "$assignment")
"$cudalab" assignment init --lab "$lab" --slot "$slot" --out "$work/init" > /dev/null || fail "assignment init"
"$cudalab" validate "$work/init/assignment.toml" | grep -q ": ok" || fail "the init template does not validate"
secret="$work/init/secret.key"
[ -s "$secret" ] || fail "assignment init wrote no secret.key"
[ "$(stat -c %a "$secret")" = 600 ] || fail "secret.key has mode $(stat -c %a "$secret"), not 600"
grep -qE '^[0-9a-f]{64}$' "$secret" || fail "secret.key does not hold 64 hex digits"
grep -qx "secret.key" "$work/init/.gitignore" || fail "the .gitignore beside the assignment does not name secret.key"
"$cudalab" assignment starter "$work/init/assignment.toml" --out "$work/init-kit" > /dev/null || fail "starter of the init template"
if grep -rqF "$(cat "$secret")" "$work/init-kit"; then fail "the kit holds the staff secret"; fi
[ ! -e "$work/init-kit/secret.key" ] || fail "the kit has a secret.key"

"$cudalab" assignment starter "$assignment" --out "$work/kit" > /dev/null || fail "assignment starter"
for f in assignment.toml lab.toml README.md; do [ -s "$work/kit/$f" ] || fail "the kit has no $f"; done
"$cudalab" validate "$work/kit/assignment.toml" | grep -q ": ok" || fail "the kit's assignment does not validate"
if grep -q 'visibility = "hidden"' "$work/kit/assignment.toml"; then fail "the kit's copy holds a hidden test"; fi
file=$(field file "$work/kit/assignment.toml")
[ -s "$work/kit/$file" ] || fail "the kit has no $file"
grep -q "TODO: your code here" "$work/kit/$file" || fail "the starter $file has no TODO"
if grep -q "BEGIN SOLUTION" "$work/kit/$file"; then fail "the starter $file still holds a solution region"; fi

"$cudalab" check "$work/kit/assignment.toml" --no-gpu --out "$work/check-starter" | tee "$work/starter.txt"
grep -q "^build: ok" "$work/starter.txt" || fail "the starter does not build"
feedback="$work/check-starter/feedback.md"
[ -s "$feedback" ] || fail "check --no-gpu wrote no feedback.md"
grep -q "^| test | kind | points | result |$" "$feedback" || fail "feedback.md has no score table"
visible=$(grep -c '^visibility = "visible"' "$work/kit/assignment.toml" || true)
rows=$(grep -c '| not run: runs on a GPU; --no-gpu checked the build only |$' "$feedback" || true)
[ "$rows" = "$visible" ] || fail "feedback.md lists $rows visible test(s) not run, the kit has $visible"
grep -q '"schema_version": 3' "$work/check-starter/grade.json" || fail "check --no-gpu wrote no grade.json"
grep -q '"command": "check"' "$work/check-starter/grade.json" || fail "grade.json does not say check wrote it"
{ cat "$work/kit/$file"; echo "this line is not C++;"; } > "$work/broken.cu"
code=0; "$cudalab" check "$work/kit/assignment.toml" --no-gpu --submission "$work/broken.cu" --out "$work/check-broken" > /dev/null || code=$?
[ "$code" = 10 ] || fail "check of a submission that does not build exited $code, not 10"
grep -q "the submission does not build" "$work/check-broken/feedback.md" || fail "feedback.md does not say the build failed"
grep -q "^## Build log" "$work/check-broken/feedback.md" || fail "feedback.md has no build log"
grep -qE "\.cu:[0-9]+: error" "$work/check-broken/feedback.md" || fail "feedback.md's build log names no line"
# Diagnostics name the file the student gave (broken.cu), not the assignment's file name.
grep -qE "broken\.cu:[0-9]+: error" "$work/check-broken/feedback.md" || fail "the build log does not name broken.cu"
if grep -qE "(^|[^/])$file:[0-9]+: error" "$work/check-broken/feedback.md"; then fail "the build log names $file, not broken.cu"; fi
reference=$(ls "$root"/plugins/*/slots/"$file" | head -1)
"$cudalab" check "$work/kit/assignment.toml" --no-gpu --submission "$reference" --out "$work/check-ref" | tee "$work/ref.txt"
grep -q "^build: ok" "$work/ref.txt" || fail "the reference $reference does not build"
echo "ok: $assignment"
