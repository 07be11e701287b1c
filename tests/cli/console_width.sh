#!/usr/bin/env bash
# The run table on the fake runtime fits $COLUMNS (80: the least important columns left out; 120:
# all), --wide shows every column whatever the width, times carry their unit, and results.csv keeps
# its numeric median_ms column.
# usage: console_width.sh CUDALAB LAB_FILE TEST_PLUGIN_DIR OUT
set -u
cudalab=$1 lab=$2 tp=$3 out=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
table() {  # table COLUMNS NAME [args...]: the table on stdout
  local columns=$1 name=$2
  shift 2
  COLUMNS=$columns "$cudalab" run "$lab" --plugin-path "$tp" --force --out "$out/$name" "$@" 2>/dev/null ||
    fail "the run at $columns columns failed"
}
widest() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' <<<"$1"; }

t80=$(table 80 w80)
echo "$t80"
[ "$(widest "$t80")" -le 80 ] || fail "a line of the table at 80 columns is longer"
grep -q "% base" <<<"$t80" || fail "% base left out at 80 columns"
! grep -q "% peak" <<<"$t80" || fail "% peak shown at 80 columns"
grep -Eq "^  copy +ok +[0-9.]+ (ns|us|ms|s) " <<<"$t80" || fail "no time with its unit at 80 columns"

t120=$(table 120 w120)
echo "$t120"
[ "$(widest "$t120")" -le 120 ] || fail "a line of the table at 120 columns is longer"
grep -q "% peak" <<<"$t120" || fail "% peak left out at 120 columns"

wide=$(table 40 wide --wide)
echo "$wide"
grep -q "% peak  ld s/r  st s/r  sh cf ld/st" <<<"$wide" || fail "--wide left a column out"
[ "$(widest "$wide")" -gt 80 ] || fail "--wide at 40 columns is narrow"

# The machine formats keep milliseconds as numbers.
head -1 "$out/w80/results.csv" | grep -q ",median_ms," || fail "results.csv has no median_ms column"
python3 - "$out/w80/results.csv" <<'PY' || fail "results.csv's median_ms (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(float(r["median_ms"]) > 0 for r in rows), rows
print("ok: median_ms is a number of milliseconds")
PY
echo "ok: the table fits the console"
