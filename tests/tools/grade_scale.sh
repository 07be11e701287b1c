#!/usr/bin/env bash
# Hand-run (issue 32's measurement; not a CTest test): a class of 14 of reduction-sum - honest, failing,
# hanging and cheating submissions from the test fixtures - graded with `--devices 0` and then with
# `--devices 0,1` by the same build, into OUT/one and OUT/two. Prints both walls and their ratio (the
# issue asks for at most 0.60), every student's two scores, and whether the gradebooks agree apart from
# the GPU column: every column equal but gpu and graded_at, and each performance test's points equal
# or its two medians inside each other's interval (noise, which the rounds' interval states).
# Exit 0 when they agree, 1 when not.
#   On two GPUs:          tests/tools/grade_scale.sh build /tmp/scale
#   On the fake runtime:  LD_LIBRARY_PATH=build/tests/fakecuda CUDALAB_FAKE_GPU=1 FAKECUDA_GPUS=2 \
#                         tests/tools/grade_scale.sh build /tmp/scale
# usage: grade_scale.sh BUILD OUT
set -euo pipefail
build=$(cd "$1" && pwd) out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cudalab=$build/bin/cudalab
assignment=$root/labs/assignments/reduction-sum/assignment.toml
subs=$root/tests/fixtures/submissions/reduction
rm -rf "$out" && mkdir -p "$out/class"
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$out/init" > /dev/null
# honest: the lab's reference, three times (three students); failing: a compile error, tuned to the
# visible sizes, an out-of-bounds store; hanging: endless at every size, endless at a large one;
# cheating: computed once, a cached result, CUB, a host copy, a stream of its own, lazy after timing.
for s in honest_a honest_b honest_c; do cp "$root/plugins/reduction/slots/reduce_sum.cu" "$out/class/$s.cu"; done
for s in compile_error visible_only oob_write endless endless_large compute_once cache_result uses_cub host_copy \
         own_stream lazy; do
  cp "$subs/$s.cu" "$out/class/$s.cu"
done
echo "class: $(ls "$out/class" | wc -l) students"

wall() {  # wall seconds of grading the class on $1 into $2
  local start end code=0
  start=$(date +%s.%N)
  "$cudalab" grade "$assignment" --submissions "$out/class" --secret "$out/init/secret.key" --out "$2" \
    --devices "$1" > "$2.txt" 2>&1 || code=$?
  end=$(date +%s.%N)
  [ "$code" = 0 ] || { echo "grade --devices $1 exited $code: $(tail -5 "$2.txt")" >&2; exit 1; }
  python3 -c "print(f'{$end - $start:.1f}')"
}
one=$(wall 0 "$out/one")
echo "--devices 0:   ${one} s"
two=$(wall 0,1 "$out/two")
echo "--devices 0,1: ${two} s"
python3 -c "print(f'ratio: {$two / $one:.2f} (at most 0.60 asked)')"

python3 - "$out/one" "$out/two" <<'PY'
import csv, json, os, sys
one_dir, two_dir = sys.argv[1], sys.argv[2]
rows = [{r["student_id"]: r for r in csv.DictReader(open(os.path.join(d, "gradebook.csv")))} for d in (one_dir, two_dir)]
agree = sorted(rows[0]) == sorted(rows[1])
perf = {}  # (student, test) -> [(median, ci), (median, ci)]
for k, d in enumerate((one_dir, two_dir)):
    for s in rows[k]:
        for t in json.load(open(os.path.join(d, s, "grade.json")))["tests"]:
            if t["kind"] == "performance" and t["metric"]:
                perf.setdefault((s, t["id"]), [None, None])[k] = (t["metric"]["median"], t["metric"]["ci"])
def within(a, b):  # each median inside the other's interval (no interval: equal)
    (ma, ca), (mb, cb) = a, b
    inside = lambda m, ci: ci is not None and ci[0] <= m <= ci[1]
    return ma == mb or (inside(ma, cb) and inside(mb, ca))
print(f"{'student':16} {'--devices 0':>12} {'--devices 0,1':>14}  gpu (0,1)   agree")
for s in sorted(rows[0]):
    a, b = rows[0][s], rows[1].get(s, {})
    same = True
    for col in a:
        if col in ("gpu", "graded_at"):
            continue
        if a[col] != b.get(col):
            pair = perf.get((s, col))
            same = same and bool(pair and None not in pair and within(*pair))
    agree = agree and same
    print(f"{s:16} {a['score']:>12} {b.get('score', '-'):>14}  {b.get('gpu', '')[:9]:10}  {'yes' if same else 'NO'}")
print("gradebooks agree apart from the GPU column" if agree else "gradebooks DIFFER beyond the GPU column and noise")
sys.exit(0 if agree else 1)
PY
