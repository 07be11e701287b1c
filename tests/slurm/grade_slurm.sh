#!/usr/bin/env bash
# `grade --submissions --slurm --wait` on a real single-node Slurm (slurm_cluster.sh: slurmctld and slurmd
# from Debian, auth/none on loopback, two fake GPUs as GRES) with the fake CUDA runtime: a class of six,
# one array task each and the merge; every student's grade.json and the gradebook; one task cancelled
# (scancel) while the array runs, its student's row "not graded" and exit 12; the same command again
# submits that student alone and exits 0; the secret's bytes in no job script, no `squeue` nor
# `scontrol show job` output. Skips (77) where the daemons are not installed or cannot run.
# usage: grade_slurm.sh CUDALAB SOURCE_ROOT WORK_DIR
set -uo pipefail
cudalab=$1 root=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work/class"
cluster=$work/cluster
fail() { echo "FAIL: $*" >&2; exit 1; }
conf=$("$here/slurm_cluster.sh" start "$cluster")
code=$?
[ "$code" = 0 ] || exit "$code"  # 77: no Slurm here
trap '"$here/slurm_cluster.sh" stop "$cluster"' EXIT
eval "$conf"
set -e

assignment=$root/labs/assignments/reduction-sum/assignment.toml
subs=$root/tests/fixtures/submissions/reduction
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
secret=$work/init/secret.key
hex=$(cat "$secret")
for s in visible_only compile_error uses_cub endless compute_once cache_result; do cp "$subs/$s.cu" "$work/class/$s.cu"; done
grades=$work/grades
watch_secret() {  # the secret in what Slurm shows of the queue and its jobs
  if squeue -a -o '%all' 2>&1 | grep -q "$hex"; then fail "squeue shows the secret"; fi
  if scontrol show job 2>&1 | grep -q "$hex"; then fail "scontrol show job shows the secret"; fi
}

# The first batch, with one task cancelled as soon as the array is queued.
code=0
"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$grades" --slurm --wait \
  --sbatch=--comment=cudalab-test > "$work/first.txt" 2>&1 &
grader=$!
array=""
for _ in $(seq 300); do
  array=$(squeue -h -r -n cudalab-grade-reduction-sum -o %F 2>/dev/null | head -1)
  [ -n "$array" ] && break
  sleep 0.1
done
[ -n "$array" ] || { kill "$grader"; fail "no array job appeared in squeue: $(cat "$work/first.txt")"; }
# The students are in name order: task 3 is endless.
scancel "${array}_3" || fail "scancel ${array}_3"
watch_secret
wait "$grader" || code=$?
cat "$work/first.txt"
[ "$code" = 12 ] || fail "the first batch (a task cancelled) exited $code, not 12"
batch=$grades/.slurm/batch-1
[ -s "$batch/grade.sbatch" ] && [ -s "$batch/merge.sbatch" ] || fail "the job scripts are not in $batch"
grep -q "^#SBATCH --gres=gpu:1$" "$batch/grade.sbatch" || fail "the array asks for no GPU per task"
grep -q "^#SBATCH --array=0-5$" "$batch/grade.sbatch" || fail "not six tasks"
grep -q "^#SBATCH --dependency=afterany:$array$" "$batch/merge.sbatch" || fail "the merge does not wait for $array"
[ -s "$grades/gradebook.csv" ] || fail "the merge wrote no gradebook.csv"
python3 - "$grades" <<'PY' || fail "the first batch's reports (above)"
import csv, json, os, sys
out = sys.argv[1]
rows = {r["student_id"]: r for r in csv.DictReader(open(os.path.join(out, "gradebook.csv")))}
assert sorted(rows) == ["cache_result", "compile_error", "compute_once", "endless", "uses_cub", "visible_only"], rows
assert rows["endless"]["status"].startswith("not graded: "), rows["endless"]
assert "CANCELLED" in rows["endless"]["status"] or "never started" in rows["endless"]["status"], rows["endless"]
for s, row in rows.items():
    if s == "endless":
        continue
    r = json.load(open(os.path.join(out, s, "grade.json")))
    assert r["complete"] and row["status"] == "graded", (s, row)
    if r["submission"]["build"]["ok"]:
        assert r["gpu"]["host"] and r["gpu"]["index"] == -1, r["gpu"]  # Slurm's GPU, not one cudalab named
print("ok: five graded, endless not graded")
PY
for f in "$grades"/.slurm/batch-1/*; do if grep -q "$hex" "$f"; then fail "$f holds the secret"; fi; done

# Again: endless alone is submitted, and the class is whole.
"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$grades" --slurm --wait \
  > "$work/second.txt" 2>&1 || fail "the resubmission exited $?: $(cat "$work/second.txt")"
cat "$work/second.txt"
[ "$(grep -c "graded already" "$work/second.txt")" = 5 ] || fail "the resubmission did not keep the five"
grep -q "^#SBATCH --array=0-0$" "$grades/.slurm/batch-2/grade.sbatch" || fail "the resubmission is not one task"
grep -q "# endless$" "$grades/.slurm/batch-2/grade.sbatch" || fail "the resubmission's task is not endless"
grep -q "^endless,.*,graded$" "$grades/gradebook.csv" || fail "endless is not graded after the resubmission"
for f in "$grades"/.slurm/batch-2/*; do if grep -q "$hex" "$f"; then fail "$f holds the secret"; fi; done
watch_secret

# Nothing left: no job submitted, the merge here.
"$cudalab" grade "$assignment" --submissions "$work/class" --secret "$secret" --out "$grades" --slurm --wait \
  > "$work/third.txt" 2>&1 || fail "the third batch exited $?"
grep -q "nothing to submit" "$work/third.txt" || fail "the third batch submitted: $(cat "$work/third.txt")"
[ ! -e "$grades/.slurm/batch-3" ] || fail "a third batch folder"
echo "ok"
