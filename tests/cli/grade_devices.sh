#!/usr/bin/env bash
# `grade --submissions --devices` on the fake runtime with two GPUs (FAKECUDA_GPUS=2): a class of six
# graded by a worker per GPU, each student whole on one GPU and its grade.json naming it (index, PCI bus
# id, host), the gradebook's gpu and status columns; run again, nothing is graded twice; a report cut
# short is graded again, alone; a student whose folder has no finished report gets a "not graded" row
# from --merge (exit 12); a GPU that does not exist is refused before anything runs (exit 5).
# usage: grade_devices.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work/class"
fail() { echo "FAIL: $*" >&2; exit 1; }
export FAKECUDA_GPUS=2
assignment=$root/labs/assignments/reduction-sum/assignment.toml
subs=$root/tests/fixtures/submissions/reduction
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
secret=$work/init/secret.key
for s in visible_only compile_error uses_cub endless compute_once cache_result; do cp "$subs/$s.cu" "$work/class/$s.cu"; done

# A GPU that is not there: refused before any student.
code=0; "$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/none" \
  --devices 0,2 > "$work/none.txt" 2>&1 || code=$?
[ "$code" = 5 ] || fail "--devices 0,2 with two GPUs exited $code, not 5: $(tail -3 "$work/none.txt")"
grep -q "GPU 2 of --devices cannot grade: its probe exited with code 5" "$work/none.txt" || fail "the missing GPU is not named: $(cat "$work/none.txt")"
[ ! -e "$work/none/compile_error" ] || fail "a student was graded although a GPU is missing"

"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/grades" --devices 0,1 \
  > "$work/class.txt" 2>&1 || fail "the batch on two GPUs exited $?: $(tail -5 "$work/class.txt")"
grep -q "^GPU 0: Fake GPU (cudalab's test double) (.*), DRAM copy [0-9]* GB/s" "$work/class.txt" \
  || fail "GPU 0's probe is not shown"
grep -q "^GPU 1: Fake GPU 1" "$work/class.txt" || fail "GPU 1's probe is not shown"
grep -q "warning: the GPUs of --devices are of different models" "$work/class.txt" || fail "no warning on the models"
python3 - "$work/grades" <<'PY' || fail "the reports (above)"
import csv, json, os, sys
out = sys.argv[1]
students = ["cache_result", "compile_error", "compute_once", "endless", "uses_cub", "visible_only"]
used = set()
for s in students:
    r = json.load(open(os.path.join(out, s, "grade.json")))
    assert r["complete"], s
    if r["submission"]["build"]["ok"]:  # built: its tests reached a GPU, which it names
        g = r["gpu"]
        assert g["index"] in (0, 1), (s, g)
        assert g["visible_devices"] == str(g["index"]), (s, g)
        assert g["pci_bus_id"] and g["host"], (s, g)
        assert r["device"]["name"].startswith("Fake GPU"), s
        used.add(g["index"])
    else:
        assert r["gpu"] is None, s
assert used == {0, 1}, used  # both workers graded
rows = list(csv.DictReader(open(os.path.join(out, "gradebook.csv"))))
assert [r["student_id"] for r in rows] == students, rows
for row in rows:
    assert row["status"] == "graded", row
    r = json.load(open(os.path.join(out, row["student_id"], "grade.json")))
    if r["gpu"]:
        assert row["gpu"].startswith("GPU %d Fake GPU" % r["gpu"]["index"]) and r["gpu"]["pci_bus_id"] in row["gpu"], row
    else:
        assert row["gpu"] == "", row
print("ok: six students on two GPUs")
PY
if grep -rq "$(cat "$secret")" "$work/grades"; then fail "an output holds the staff secret"; fi

# Again: nothing graded twice. Then one report cut short (a worker killed midway): that one alone.
"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/grades" --devices 0,1 \
  > "$work/again.txt" 2>&1 || fail "the resumed batch exited $?"
[ "$(grep -c "graded already" "$work/again.txt")" = 6 ] || fail "the resumed batch graded again: $(cat "$work/again.txt")"
! grep -q "grading " "$work/again.txt" || fail "the resumed batch started a worker's child"
python3 - "$work/grades/visible_only/grade.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); r["complete"] = False
json.dump(r, open(sys.argv[1], "w"))
PY
"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/grades" --devices 0,1 \
  > "$work/third.txt" 2>&1 || fail "the third batch exited $?"
[ "$(grep -c "graded already" "$work/third.txt")" = 5 ] || fail "not 5 kept: $(cat "$work/third.txt")"
[ "$(grep -c "^GPU [01]: grading visible_only" "$work/third.txt")" = 1 ] || fail "visible_only was not graded again once"

# A student whose grading left nothing (a worker killed before the build ended): --merge says so, exit 12.
rm -rf "$work/grades/endless"
code=0; "$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$work/grades" --merge \
  > "$work/merge.txt" 2>&1 || code=$?
[ "$code" = 12 ] || fail "--merge with a student missing exited $code, not 12"
grep -q '^endless,[a-z]*-[a-z]*-[0-9a-f]*,,100,,,,,,,,,,,"not graded: no grade.json: its grading never started' \
  "$work/grades/gradebook.csv" || fail "endless's row: $(grep endless "$work/grades/gradebook.csv")"
grep -q "1 not graded: run the batch again to grade just those" "$work/merge.txt" || fail "the merge's summary"
echo "ok"
