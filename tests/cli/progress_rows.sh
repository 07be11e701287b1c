#!/usr/bin/env bash
# The progress line never garbles the result table: runs `cudalab run --progress ARGS...` with stderr
# and stdout on one stream, as a terminal shows them, replays the bytes the way a terminal does
# ("\r" back to column 0, ESC[K erases to the end of the line), and checks what stays on the screen:
# every table row starts with its variant, and no progress text is left anywhere.
# usage: progress_rows.sh CUDALAB VARIANT_REGEX ARGS...
set -u
cudalab=$1 variants=$2
shift 2
raw=$("$cudalab" run --progress "$@" 2>&1)
code=$?
if [ "$code" != 0 ]; then echo "$raw"; echo "FAIL: exit code $code" >&2; exit 1; fi
if ! grep -q $'\r\033\[K\[[0-9]*/[0-9]*\]' <<<"$raw"; then echo "FAIL: no progress line was drawn" >&2; exit 1; fi
screen=$(awk '
  {
    line = ""; pos = 0; n = split($0, parts, "\r")
    for (p = 1; p <= n; p++) {
      if (p > 1) pos = 0
      m = split(parts[p], pieces, "\033\\[K")
      for (q = 1; q <= m; q++) {
        if (q > 1) line = substr(line, 1, pos)
        t = pieces[q]
        line = substr(line, 1, pos) t substr(line, pos + length(t) + 1)
        pos += length(t)
      }
    }
    print line
  }' <<<"$raw")
echo "$screen"
if grep -En '\[[0-9]+/[0-9]+\] [0-9:]+ elapsed' <<<"$screen"; then
  echo "FAIL: progress text is left on the screen (above)" >&2; exit 1
fi
rows=$(grep -Ec "^  ($variants)( \(baseline\))? +(ok|verify_failed|error|skipped) " <<<"$screen")
results=$(grep -Eo 'cudalab: [0-9]+ result' <<<"$screen" | grep -Eo '[0-9]+')
if [ -z "$results" ] || [ "$rows" != "$results" ]; then
  echo "FAIL: $rows intact table rows for ${results:-?} results" >&2; exit 1
fi
echo "ok: $rows rows intact, progress line cleared"
