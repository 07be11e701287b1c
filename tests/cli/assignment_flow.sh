#!/usr/bin/env bash
# The staff and student commands on one example assignment, with no GPU: validate, `assignment init`
# for its lab and slot (the template validates), `assignment starter` (the kit's public copy validates
# and holds no hidden test), and `check --no-gpu` of the starter (it compiles) and of the slot's
# reference from the plugin's source (it compiles too).
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
reference=$(ls "$root"/plugins/*/slots/"$file" | head -1)
"$cudalab" check "$work/kit/assignment.toml" --no-gpu --submission "$reference" --out "$work/check-ref" | tee "$work/ref.txt"
grep -q "^build: ok" "$work/ref.txt" || fail "the reference $reference does not build"
echo "ok: $assignment"
