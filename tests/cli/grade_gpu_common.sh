# What the GPU grade tests share (sourced by grade_gpu.sh and grade_cheats_gpu.sh, with cudalab, root and work set):
# the skip without a GPU (77), a fresh work folder, the reduction-sum assignment and its fixtures, a staff secret,
# and grade / status / flags over the grade.json of each graded submission.
nvidia-smi -L > /dev/null 2>&1 || { echo "skipped: no GPU"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
assignment=$root/labs/assignments/reduction-sum/assignment.toml
subs=$root/tests/fixtures/submissions/reduction
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
grade() {  # grade NAME FILE STUDENT
  "$cudalab" grade "$assignment" --submission "$2" --student "$3" --secret "$work/init/secret.key" --out "$work/$1" \
    --no-color > "$work/$1.txt" 2>&1 || fail "grade of $1 exited $?: $(tail -5 "$work/$1.txt")"
}
status() {  # status NAME TEST_ID
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(next(t['status'] for t in d['tests'] if t['id']==sys.argv[2]))" \
    "$work/$1/grade.json" "$2"
}
flags() { python3 -c "import json,sys; print(' '.join(f['check'] for f in json.load(open(sys.argv[1]))['flags']))" "$work/$1/grade.json"; }
