#!/usr/bin/env bash
# `cudalab grade` of fixture submissions on a GPU (exit 77 without one), each against what it states. Honest
# fixtures (EXPECT honest) must earn every correctness point - the visible and the hidden tests - pass the
# sanitizers and every integrity test, raise no blocking flag and be timed (the bandwidth test passed or
# failed on its merits, never held). Cheating fixtures (EXPECT caught) must lose their points to a named check,
# each fixture's file saying which: its line "// caught by: CHECK[|CHECK...]" names the grade.json flags, test
# statuses (TEST=STATUS) or integrity tests of which one at least must show.
# usage: grade_fixtures.sh CUDALAB SOURCE_ROOT WORK_DIR ASSIGNMENT EXPECT SUBMISSION...
set -euo pipefail
cudalab=$1 root=$2 work=$3 assignment=$4 expect=$5
shift 5
nvidia-smi -L > /dev/null 2>&1 || { echo "skipped: no GPU"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; failed=1; }
. "$(dirname "$0")/new_secret.sh"
mkdir -p "$work/init" && new_secret "$work/init/secret.key"
failed=0
for submission in "$@"; do
  name=$(basename "$submission" .cu)
  if ! "$cudalab" grade "$assignment" --submission "$submission" --student "$name" --secret "$work/init/secret.key" \
    --out "$work/$name" --no-color > "$work/$name.txt" 2>&1; then
    fail "grade of $name exited $?: $(tail -5 "$work/$name.txt")"
    continue
  fi
  caught_by=$(sed -n 's|^// caught by: ||p' "$submission" | head -1)
  if ! verdict=$(python3 - "$work/$name/grade.json" "$expect" "$caught_by" <<'PY'
import json, sys
def refuse(why):
    print(why)
    sys.exit(1)
d = json.load(open(sys.argv[1]))
expect, caught_by = sys.argv[2], sys.argv[3]
tests = {t["id"]: t for t in d["tests"]}
flags = [f["check"] for f in d["flags"]]
if expect == "honest":
    wrong = [f"{i}: {t['status']} ({t.get('message', '')})" for i, t in tests.items()
             if t["kind"] in ("correctness", "sanitizer", "integrity") and t["status"] != "passed"]
    wrong += [f"{i}: {t['points']} of {t['max_points']} points" for i, t in tests.items()
              if t["kind"] == "correctness" and t["points"] != t["max_points"]]
    wrong += [f"flag {f['check']}: {f['message']}" for f in d["flags"] if f["severity"] == "blocking"]
    wrong += [f"{i}: {t['status']}" for i, t in tests.items()
              if t["kind"] == "performance" and t["status"] not in ("passed", "failed")]
    if wrong:
        refuse("not full marks: " + "; ".join(wrong))
    print("full correctness marks, " + ", ".join(f"{i} {t['status']}" for i, t in tests.items() if t["kind"] == "performance"))
else:
    if not caught_by:
        refuse("its file has no '// caught by:' line")
    seen = []
    for want in caught_by.split("|"):
        want = want.strip()
        if "=" in want:
            test, status = want.split("=")
            if test in tests and tests[test]["status"] == status:
                seen.append(want)
        elif want in flags or (want in tests and tests[want]["status"] != "passed"):
            seen.append(want)
    if not seen:
        refuse(f"caught by none of {caught_by}: flags {flags}, " +
                 ", ".join(f"{i} {t['status']}" for i, t in tests.items()))
    print("caught by " + ", ".join(seen))
PY
  ); then
    fail "$name: $verdict"
    continue
  fi
  echo "$name: $verdict"
done
exit $failed
