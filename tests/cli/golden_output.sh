#!/usr/bin/env bash
# Runs a command and compares its stdout, byte for byte, with a golden file (its stderr is shown).
# With CUDALAB_UPDATE_GOLDEN=1 it rewrites the golden file instead (then review `git diff`).
# usage: golden_output.sh GOLDEN command [args...]
set -u
golden=$1
shift
out=$("$@"; echo "exit $?")
if [ "${CUDALAB_UPDATE_GOLDEN:-0}" = 1 ]; then
  printf '%s\n' "$out" >"$golden"
  echo "rewrote $golden"
  exit 0
fi
[ -f "$golden" ] || { echo "FAIL: no golden file $golden (run with CUDALAB_UPDATE_GOLDEN=1)" >&2; exit 1; }
if ! diff -u "$golden" <(printf '%s\n' "$out"); then
  echo "FAIL: the output differs from $golden (above: - golden, + now)" >&2
  exit 1
fi
echo "ok: the output is $golden"
