#!/usr/bin/env bash
# The results folder and the files in it (docs/results.md), against the red-team review's findings:
# one CASE per finding, each one or more runs of cudalab whose folder is then checked.
# usage: results_folder.sh CASE CUDALAB FAKE_LABS_DIR WORK_DIR
# Exits 77 (skip) without a GPU, unless CUDALAB_FAKE_GPU=1 (the fake CUDA runtime stands in for one),
# and where a case cannot be exercised here (a read-only folder, for root).
set -u
case_name=$1 cudalab=$2 labs=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures/cli
verify=$here/../../configs/verify.toml
if [ "${CUDALAB_FAKE_GPU:-0}" != 1 ] && ! nvidia-smi -L >/dev/null 2>&1; then echo "skipped: no GPU"; exit 77; fi
# The fake device's ceilings copy a quarter of its memory: 512 MiB keeps timed runs (and each step of an
# isolated run's GPU probe, which --timeout watches) short.
[ "${CUDALAB_FAKE_GPU:-0}" = 1 ] && export FAKECUDA_MEMORY=$((512 << 20))
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# run EXPECTED_CODE ARGS...: `cudalab run ARGS` with the test plugins; its output in $out.
run() {
  local expected=$1
  shift
  echo "\$ cudalab run $*"
  out=$("$cudalab" run "$@" --plugin-path="$labs" --plugin-path="$labs/faulty" 2>&1)
  local code=$?
  echo "$out"
  echo "exit $code"
  [ "$code" = "$expected" ] || bad "exit code $code, expected $expected"
}
expect_output() { grep -Eq -- "$1" <<<"$out" || bad "the output does not match /$1/"; }
refuse_output() { ! grep -Eq -- "$1" <<<"$out" || bad "the output matches /$1/, which it must not"; }
# The folder the run's last line names ("cudalab: 6 result(s) in DIR").
folder_named() { sed -n 's/^cudalab: [0-9]* result(s) in \([^ ,]*\).*/\1/p' <<<"$out"; }

# plant_victim: victim.txt, which no run may change.
plant_victim() { echo "IMPORTANT DATA - do not lose" >victim.txt; }
victim_intact() { [ "$(cat victim.txt)" = "IMPORTANT DATA - do not lose" ] || bad "victim.txt was overwritten: $(head -c 80 victim.txt)"; }
result_files="context.json results.jsonl results.json results.csv report.md"
# regular_files DIR: each result file in DIR is a file of its own, not a symlink.
regular_files() {
  for f in $result_files; do [ -f "$1/$f" ] && [ ! -L "$1/$f" ] || bad "$1/$f is not a regular file"; done
}

# F3: a symlink planted in the results folder is never written through.
redteam_f03_symlink_in_out() {
  plant_victim
  mkdir planted
  for f in $result_files; do ln -s ../victim.txt "planted/$f"; done
  run 2 "$fixtures/testlab.toml" --config "$verify" --out planted
  expect_output "planted is not empty"
  victim_intact
  # --force replaces the symlinks themselves.
  run 0 "$fixtures/testlab.toml" --config "$verify" --out planted --force
  victim_intact
  regular_files planted
}

# F3: the default folder's name cannot be predicted and prepared: symlinks planted in the folders of the
# next seconds' names (with and without the UTC marker and the first suffix) are never written through.
redteam_f03_default_name_planted() {
  plant_victim
  local now i s d f
  now=$(date +%s)
  for i in $(seq -2 10); do
    s=$(date -u -d "@$((now + i))" +%Y%m%d-%H%M%S)
    for d in "$s" "${s}Z" "${s}Z-2"; do
      mkdir -p "results/$d"
      for f in $result_files; do ln -s ../../victim.txt "results/$d/$f"; done
    done
  done
  run 0 "$fixtures/testlab.toml" --config "$verify"
  victim_intact
  d=$(folder_named)
  [ -n "$d" ] && regular_files "$d"
}

# F4: a file-size limit (RLIMIT_FSIZE) makes writes fail part-way: the run says which file could not be
# written, exits 9, and leaves no truncated final file and no temporary file; results.jsonl keeps only
# whole lines.
redteam_f04_file_size_limit() {
  trap '' XFSZ # a write past the limit then fails with EFBIG instead of killing the process
  ulimit -f 4  # KiB: results.jsonl stops after a few lines, results.json (about 10 KiB) fails
  run 9 "$fixtures/testlab.toml" --config "$verify" --out limited
  expect_output "cannot write limited/results.json: File too large"
  expect_output "cannot write limited/results.jsonl: File too large"
  [ ! -e limited/results.json ] || bad "a truncated results.json was left: $(wc -c <limited/results.json) bytes"
  [ "$(wc -l <limited/results.csv)" = 7 ] || bad "results.csv is incomplete"
  grep -q "^## Verification" limited/report.md || bad "report.md is incomplete"
  local extra
  extra=$(ls -A limited | grep -Ev '^(context\.json|results\.jsonl|results\.csv|report\.md)$')
  [ -z "$extra" ] || bad "files left in the folder: $extra"
  [ -z "$(tail -c1 limited/results.jsonl)" ] || bad "results.jsonl ends in a cut-off line"
  [ "$(grep -cv '}$' limited/results.jsonl)" = 0 ] || bad "results.jsonl holds a cut-off line"
}

# F4: a folder cudalab may not write into: exit 9 before anything runs, never "N result(s)".
redteam_f04_read_only_folder() {
  if [ "$(id -u)" = 0 ]; then echo "skipped: root writes into a read-only folder all the same"; exit 77; fi
  mkdir ro && chmod 555 ro
  run 9 "$fixtures/testlab.toml" --config "$verify" --out ro
  chmod 755 ro
  expect_output "cannot write ro/results.jsonl: Permission denied"
  refuse_output "result\\(s\\) in"
}

# F5: two runs started in the same second write two folders, each with its own results.
redteam_f05_same_second() {
  while [ "$(date +%N | cut -c1)" != 0 ]; do sleep 0.01; done # the start of a second
  "$cudalab" run "$fixtures/testlab.toml" --config "$verify" --set lab.title=RUN-A --plugin-path="$labs" >a.log 2>&1 &
  local a=$!
  "$cudalab" run "$fixtures/testlab.toml" --config "$verify" --set lab.title=RUN-B --plugin-path="$labs" >b.log 2>&1 &
  local b=$!
  wait $a || bad "run A: exit $?"
  wait $b || bad "run B: exit $?"
  cat a.log b.log
  local da db
  da=$(out=$(cat a.log) folder_named)
  db=$(out=$(cat b.log) folder_named)
  echo "A: $da, B: $db"
  [ "$da" != "$db" ] || bad "both runs wrote into $da"
  # titled DIR TITLE: how many results in DIR are titled TITLE.
  titled() { grep -c "\"title\":\"$2\"" "$1/results.jsonl"; }
  [ "$(titled "$da" RUN-A)" = 6 ] && [ "$(titled "$da" RUN-B)" = 0 ] || bad "run A's folder does not hold exactly run A's results"
  [ "$(titled "$db" RUN-B)" = 6 ] && [ "$(titled "$db" RUN-A)" = 0 ] || bad "run B's folder does not hold exactly run B's results"
}

# F6: a folder that holds results already is refused, and left as it was.
redteam_f06_out_not_empty() {
  run 0 "$fixtures/testlab.toml" --config "$verify" --set lab.title=FIRST --out reuse
  local before
  before=$(cd reuse && find . -type f | sort | xargs md5sum)
  run 2 "$fixtures/testlab.toml" --config "$verify" --set lab.title=SECOND --set lab.variants=memcpy --out reuse
  expect_output "reuse is not empty .*--force"
  [ "$(cd reuse && find . -type f | sort | xargs md5sum)" = "$before" ] || bad "the first run's results were changed"
}

# F6: --force replaces a previous run's results, plots included, but never a folder with other files.
redteam_f06_force_replaces() {
  mkdir -p previous/plots
  echo old >previous/results.json
  echo old >previous/report.md
  echo "<svg/>" >previous/plots/old.svg
  run 0 "$fixtures/testlab.toml" --config "$verify" --out previous --force
  [ ! -e previous/plots/old.svg ] || bad "the previous run's plot is still there"
  grep -q '"results"' previous/results.json || bad "results.json is not the new run's"
  mkdir other
  echo keep >other/notes.txt
  echo old >other/results.json
  run 2 "$fixtures/testlab.toml" --config "$verify" --out other --force
  expect_output "notes.txt"
  [ "$(cat other/notes.txt)" = keep ] && [ "$(cat other/results.json)" = old ] || bad "--force changed a folder it refused"
}

# F23: two lab files with the same stem get a plot each, and report.md links each to its own.
redteam_f23_same_stem_plots() {
  mkdir dirA dirB
  sed 's/^title = .*/title = "Lab A"/' "$fixtures/testlab.toml" >dirA/lab.toml
  sed 's/^title = .*/title = "Lab B"/' "$fixtures/testlab.toml" >dirB/lab.toml
  run 0 dirA/lab.toml dirB/lab.toml --set "sweep.n=[1000,2000]" --out stem
  [ "$(ls stem/plots | wc -l)" = 2 ] || bad "plots/ holds $(ls stem/plots)"
  local file svg
  for file in dirA/lab.toml dirB/lab.toml; do
    svg=$(awk -v f="$file" '/^## /{s = index($0, f) > 0} s && /!\[/{match($0, /\(plots\/[^)]*\)/); print substr($0, RSTART + 1, RLENGTH - 2); exit}' stem/report.md)
    echo "$file: $svg"
    grep -q ">$file: against " "stem/$svg" || bad "the plot linked in $file's section ($svg) is not $file's"
  done
}

# F25: an obstacle at plots/ (made while a watchdog waits out a kernel that never ends) is a write error
# that names the plot, not an internal error; everything else is written.
redteam_f25_plots_obstacle() {
  (for _ in $(seq 1500); do
    if [ -e obstacle/results.jsonl ]; then
      [ -e obstacle/plots ] || echo "not a folder" >obstacle/plots
      break
    fi
    sleep 0.02
  done) &
  local watcher=$!
  run 9 "$fixtures/faulty_hang.toml" "$fixtures/testlab.toml" --isolate --timeout 6 --out obstacle
  wait $watcher
  [ "$(cat obstacle/plots 2>/dev/null)" = "not a folder" ] || bad "the obstacle was not placed before the plots"
  expect_output "cannot write obstacle/plots/testlab.svg: obstacle/plots is there and is not a folder"
  expect_output "the run's own exit code is 8" # the watchdog's timeout
  expect_output "8 result\\(s\\) in obstacle"
  refuse_output "internal error"
  [ "$(grep -c '"variant": ' obstacle/results.json)" = 8 ] || bad "results.json is incomplete"
  grep -q "^## Verification" obstacle/report.md || bad "report.md is incomplete"
}

# F37: the default folder is named after the UTC time, and says so (Z), whatever the time zone.
redteam_f37_default_name_utc() {
  out=$(TZ=Asia/Tokyo "$cudalab" run "$fixtures/testlab.toml" --config "$verify" --plugin-path="$labs" 2>&1)
  echo "$out"
  local d t
  d=$(folder_named)
  [[ "$d" =~ ^results/([0-9]{8})-([0-9]{2})([0-9]{2})([0-9]{2})Z$ ]] || { bad "'$d' is not results/YYYYMMDD-HHMMSSZ"; return; }
  t=$(TZ=UTC date -d "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}:${BASH_REMATCH[3]}:${BASH_REMATCH[4]}" +%s)
  (($(date +%s) - t < 60)) || bad "$d is not the UTC time of the run"
}

if [ "$(type -t "$case_name")" != function ]; then
  echo "no case $case_name" >&2
  exit 2
fi
"$case_name"
[ $fail = 0 ] && echo "ok: $case_name"
exit $fail
