#!/usr/bin/env bash
# Runs a command on an input made for it, under a time and a memory limit, so that a regression that
# hangs or eats memory fails (exit 124 on the time limit, a failed allocation on the memory limit)
# instead of stalling or swapping CI. The red-team tests of lab files use it behind expect_exit.sh.
# usage: limited.sh SECONDS MEMORY_MIB KIND command [args...]
# Every argument @FILE@ becomes the path of a fresh input of KIND, in a temporary folder:
#   none       nothing is made (for /dev/zero and other inputs that exist already)
#   fifo       a named pipe that nobody writes to
#   big        a valid lab file of 17 MiB (a long comment), over the 16 MiB limit
#   long_key   a lab file whose [params] has an unknown key 10 MB long
#   many_keys  a lab file whose [params] has 200000 unknown keys
set -u
seconds=$1 mib=$2 kind=$3
shift 3
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
file=$dir/input.toml
header='[lab]\nplugin = "testlab"\n'
case $kind in
  none) ;;
  fifo) mkfifo "$file" || exit 2 ;;
  big) { printf "$header#"; head -c $((17 << 20)) /dev/zero | tr '\0' x; printf '\n'; } >"$file" ;;
  long_key) { printf "$header[params]\n"; head -c 10000000 /dev/zero | tr '\0' k; printf ' = 1\n'; } >"$file" ;;
  many_keys) awk -v h="$header" 'BEGIN { printf h "[params]\n"; for (i = 0; i < 200000; i++) print "zz" i " = 1" }' >"$file" ;;
  *) echo "limited.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac
args=()
for a in "$@"; do [ "$a" = @FILE@ ] && args+=("$file") || args+=("$a"); done
ulimit -v $((mib * 1024))
timeout -k 2 "$seconds" "${args[@]}" </dev/null
