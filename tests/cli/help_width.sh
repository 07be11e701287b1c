#!/usr/bin/env bash
# --help of cudalab and of every command fits in $COLUMNS (80 and 120): descriptions are wrapped at
# spaces under their column, no line is longer than the width.
# usage: help_width.sh CUDALAB
set -u
cudalab=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
commands=$("$cudalab" --help | sed -n '/^Subcommands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
for width in 80 120; do
  for c in "" $commands "assignment init" "assignment starter"; do
    # shellcheck disable=SC2086
    text=$(COLUMNS=$width "$cudalab" $c --help) || fail "cudalab $c --help failed"
    long=$(awk -v w="$width" 'length($0) > w' <<<"$text")
    [ -z "$long" ] || fail "cudalab $c --help at $width columns has longer lines:
$long"
  done
done
# A long description goes on under its column, not back at the left edge.
text=$(COLUMNS=80 "$cudalab" run --help)
grep -Eq '^ {26}[a-z(]' <<<"$text" || fail "no description is continued under its column at 80 columns: $text"
echo "ok: --help fits in 80 and 120 columns"
