#!/usr/bin/env bash
# Escape sequences a student wrote reach the console and feedback.md escaped (red-team review 2026-11-26
# F29): `check --no-gpu` of a launcher whose #pragma message holds ESC bytes (and whose build then fails at
# the link, so the build log is in feedback.md). Neither holds a raw ESC byte; both show "\x1b[31m...".
# usage: escape_sequences.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
code=0
"$cudalab" check "$root/labs/assignments/reduction-sum/assignment.toml" --no-gpu \
  --submission "$root/tests/fixtures/submissions/reduction/escape_sequences.cu" --out "$work/check" \
  > "$work/console.txt" 2>&1 || code=$?
[ "$code" = 10 ] || fail "check exited $code, not 10 (the build fails at the link): $(cat -v "$work/console.txt")"
shown='\x1b[31mRED-ALERT\x1b[8mHIDDEN-TEXT\x1b[2J\x1b[H'
for file in "$work/console.txt" "$work/check/feedback.md"; do
  if grep -q $'\e' "$file"; then fail "$(basename "$file") holds a raw ESC byte: $(grep $'\e' "$file" | cat -v)"; fi
  grep -qF "$shown" "$file" || fail "$(basename "$file") does not show the escape sequences escaped: $(cat -v "$file")"
done
echo "ok: the escape sequences are shown, not obeyed"
