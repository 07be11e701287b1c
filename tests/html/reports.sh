#!/usr/bin/env bash
# cudalab's HTML reports opened in headless Chromium (check_page.py: the DOM's tables, rows and plots,
# no console error, nothing fetched, screenshots at 1280 and 390 px in light and dark, sorting and the
# variant filter, JavaScript off, hostile names shown as text). One kind of report per call:
#   run       a run on the fake CUDA runtime of the test lab under a hostile title and file name, beside a
#             lab file that fails verification: report.html, and `cudalab report` writes the same again
#   compare   two such runs compared: compare --format html
#   feedback  check --no-gpu of a submission that does not build, under a hostile file name: feedback.html
#             with the student's line under the compiler's message
#   class     a class batch of the reduction-sum assignment (class_fixture.py: graded already, kept) and
#             one student graded now: class.html (no names), class-staff.html, a kept student's feedback.html
#   catches   report.html of an H100 run (tests/fixtures/plots) passes; the same page without its plot,
#             or without its table, fails the same check
# usage: reports.sh KIND CUDALAB SOURCE_ROOT FAKE_LAB_DIR WORK [CHROMIUM]; exit 77 without Chromium.
set -euo pipefail
kind=$1 cudalab=$2 root=$3 labs=$4 work=$5 chromium=${6:-chromium}
command -v "$chromium" > /dev/null 2>&1 || { echo "no Chromium ($chromium): skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
check() { python3 "$root/tests/html/check_page.py" "$chromium" "$@" --shots "$work/shots"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# The rows each lab file of a run should have: --table results-N=ROWS for its N-th lab file.
result_rows() {
  python3 - "$1" "$2" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))['results']
files = list(dict.fromkeys(r['lab_file'] for r in results))
print(' '.join('--table %s-%d=%d' % (sys.argv[2], i + 1, sum(r['lab_file'] == f for r in results))
               for i, f in enumerate(files)))
PY
}

# A name and a title that run script if a page ever writes them as markup.
hostile_file='<img src=x onerror=window.pwned=1>.toml'
hostile_title='</title><script>window.pwned=2</script><b onmouseover=window.pwned=3>bold</b>'
lab_files() {
  mkdir -p "$work/labs"
  cat > "$work/labs/$hostile_file" <<TOML
# The test lab over n: what to look for <i>here</i>.
[lab]
plugin = "testlab"
title = "$hostile_title"

[sweep]
n = [1000, 4000, 16000, 64000]

[measure]
repetitions = 6
min_time_ms = 1
warmup_ms = 1
TOML
  cp "$root/tests/fixtures/cli/verify_fails.toml" "$work/labs/verify_fails.toml"
}
run_labs() {  # run_labs OUT: exit 6, a result failed verification
  local code=0
  "$cudalab" run "$work/labs/$hostile_file" "$work/labs/verify_fails.toml" --plugin-path "$labs" --out "$1" \
    > "$1.txt" 2>&1 || code=$?
  [ "$code" = 6 ] || fail "the run exited $code, not 6: $(tail -3 "$1.txt")"
}

case $kind in
run)
  lab_files
  run_labs "$work/run"
  [ -s "$work/run/report.html" ] || fail "the run wrote no report.html"
  # shellcheck disable=SC2046
  check "$work/run/report.html" $(result_rows "$work/run/results.json" results) --tables 3 --plots 1 \
    --sort results-1 --filter results-1 --text "$hostile_title" --text "${hostile_file}" \
    --text "What to look for" --text "1 of 1000 wrong" || fail "report.html"
  "$cudalab" report "$work/run" --out "$work/again.html" > /dev/null || fail "cudalab report exited $?"
  cmp -s "$work/run/report.html" "$work/again.html" || fail "cudalab report wrote another page than the run"
  ;;
compare)
  lab_files
  run_labs "$work/base"
  run_labs "$work/new"
  code=0
  "$cudalab" compare "$work/base" "$work/new" --format html > "$work/compare.html" 2> "$work/compare.err" || code=$?
  [ "$code" = 0 ] || [ "$code" = 11 ] || fail "compare exited $code: $(cat "$work/compare.err")"
  # shellcheck disable=SC2046
  check "$work/compare.html" $(result_rows "$work/new/results.json" compare) --tables 2 --sort compare-1 \
    --filter compare-1 --text "$hostile_title" --text "${hostile_file}" || fail "compare.html"
  ;;
feedback)
  mkdir -p "$work/student"
  file=$work/student/'<img src=x onerror=window.pwned=4>.cu'
  cp "$root/tests/fixtures/submissions/alignment/compile_error.cu" "$file"
  code=0
  "$cudalab" check "$root/labs/assignments/alignment-vector-copy/assignment.toml" --no-gpu --submission "$file" \
    --out "$work/check" > "$work/check.txt" 2>&1 || code=$?
  [ "$code" = 10 ] || fail "check of a compile error exited $code, not 10"
  tests=$(json "$work/check/grade.json" 'len(d["tests"])')
  check "$work/check/feedback.html" --table "tests=$tests" --text "$(basename "$file")" \
    --text 'error: identifier "j" is undefined' --text 'in[n / 4 * 4 + j]' || fail "feedback.html of check"
  ;;
class)
  assignment=$root/labs/assignments/reduction-sum/assignment.toml
  "$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$work/init" > /dev/null
  students=$(python3 "$root/tests/html/class_fixture.py" "$assignment" "$root/plugins/reduction/slots/reduce_sum.cu" \
    "$work/class" "$work/grades")
  cp "$root/tests/fixtures/submissions/reduction/compile_error.cu" "$work/class/zed.cu"  # graded now: no build
  "$cudalab" grade "$assignment" --submissions "$work/class" --secret "$work/init/secret.key" --out "$work/grades" \
    > "$work/grade.txt" 2>&1 || fail "the batch exited $?: $(tail -3 "$work/grade.txt")"
  grep -q "11 kept from an earlier batch" "$work/grade.txt" || fail "the class fixture's reports were not kept"
  all=$((students + 1))
  for page in class class-staff; do
    check "$work/grades/$page.html" --table "students=$all" --table pass-rates=7 --table flags=2 --plots 2 \
      --sort students --sort pass-rates --text 'onerror="window.pwned=1"' --text 'window.pwned=2' \
      --text 'Held for review' || fail "$page.html"
  done
  if grep -q -e '>ada<' -e '(ada)' -e 'ada/feedback' "$work/grades/class.html"; then fail "class.html names a student"; fi
  grep -q 'href="./ada/feedback.html"' "$work/grades/class-staff.html" || fail "class-staff.html links no feedback.html"
  check "$work/grades/bob/feedback.html" --table tests=6 --plots 1 --text "all points at 70" || fail "bob's feedback.html"
  ;;
catches)
  "$cudalab" report "$root/tests/fixtures/plots/h100-reduction_sizes" --out "$work/report.html" > /dev/null
  expect=(--table results-1=50 --plots 1 --sort results-1 --filter results-1)
  check "$work/report.html" "${expect[@]}" || fail "the H100 run's report.html"
  python3 - "$work" <<'PY'
import re, sys
page = open(sys.argv[1] + '/report.html').read()
open(sys.argv[1] + '/no_plot.html', 'w').write(re.sub(r'<figure class="plot".*?</figure>', '', page, flags=re.S))
open(sys.argv[1] + '/no_table.html', 'w').write(re.sub(r'<div class="box"><table id="results-1".*?</table></div>', '', page, flags=re.S))
PY
  for broken in no_plot no_table; do
    if check "$work/$broken.html" "${expect[@]}" > "$work/$broken.txt"; then fail "the check passes $broken.html"; fi
    cat "$work/$broken.txt"
  done
  ;;
*) fail "no kind $kind" ;;
esac
echo "ok: $kind"
