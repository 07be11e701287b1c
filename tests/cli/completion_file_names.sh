#!/usr/bin/env bash
# `cudalab completion bash` offers file names it finds (plugins on the search path) as words, never as
# shell text: a plugin file whose name holds a command substitution is offered as it is, and the
# command in it does not run (the 2026-11-26 red-team review's F11: compgen -W expanded it).
# usage: completion_file_names.sh CUDALAB
set -u
cudalab=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
script=$("$cudalab" completion bash) || fail "cudalab completion bash failed"
work=$(mktemp -d) || fail "no temporary folder"
trap 'rm -rf "$work"' EXIT
mkdir "$work/plugins" "$work/cwd"
hostile='cudalab_$(touch ran).so'
: >"$work/plugins/$hostile"
: >"$work/plugins/cudalab_plain.so"
offers=$(cd "$work/cwd" && bash -c 'source /dev/stdin <<<"$1"; shift
           COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
           _cudalab; printf "%s\n" "${COMPREPLY[@]}"' _ "$script" cudalab describe --plugin-path "$work/plugins" "" \
  2>/dev/null | LC_ALL=C sort | tr '\n' ' ')
[ ! -e "$work/cwd/ran" ] || fail "completing a plugin name ran the command in a plugin file's name"
[ "$offers" = '$(touch ran) plain ' ] || fail "completing plugin names offered '$offers'"
# A word typed so far still narrows the names, literally.
offers=$(cd "$work/cwd" && bash -c 'source /dev/stdin <<<"$1"; shift
           COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
           _cudalab; printf "%s\n" "${COMPREPLY[@]}"' _ "$script" cudalab describe --plugin-path "$work/plugins" "pl" \
  2>/dev/null | tr '\n' ' ')
[ "$offers" = 'plain ' ] || fail "completing 'pl' offered '$offers'"
[ ! -e "$work/cwd/ran" ] || fail "completing a plugin name ran the command in a plugin file's name"
echo "ok: file names are offered as words"
