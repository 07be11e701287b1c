#!/usr/bin/env bash
# Runs a command and checks its exit code and that its output (stdout + stderr) matches a pattern.
# usage: expect_exit.sh EXPECTED_CODE EXTENDED_REGEX command [args...]
# Exits 77 (skip) when CUDALAB_SKIP_IF_GPU=1 and a GPU is present (tests of the no-GPU path), or
# when CUDALAB_SKIP_IF_NO_GPU=1 and none is (tests that need one). With CUDALAB_EXPECT_ABSENT set to a
# regex, the output must not match it. cudalab runs with COLUMNS=120 (its width off a terminal), or
# CUDALAB_TEST_COLUMNS where a test sets it, so that a COLUMNS exported by the shell changes no table.
set -u
export COLUMNS=${CUDALAB_TEST_COLUMNS:-120}
expected=$1 pattern=$2
shift 2
if [ "${CUDALAB_SKIP_IF_GPU:-0}" = 1 ] && nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: a GPU is present"; exit 77
fi
if [ "${CUDALAB_SKIP_IF_NO_GPU:-0}" = 1 ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no GPU"; exit 77
fi
out=$("$@" 2>&1)
code=$?
echo "$out"
if [ "$code" != "$expected" ]; then echo "FAIL: exit code $code, expected $expected" >&2; exit 1; fi
if ! grep -Eq -- "$pattern" <<<"$out"; then echo "FAIL: output does not match /$pattern/" >&2; exit 1; fi
if [ -n "${CUDALAB_EXPECT_ABSENT:-}" ] && grep -Eq -- "$CUDALAB_EXPECT_ABSENT" <<<"$out"; then
  echo "FAIL: output matches /$CUDALAB_EXPECT_ABSENT/, which it must not" >&2; exit 1
fi
echo "ok: exit $code, output matches /$pattern/"
